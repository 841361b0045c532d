import type { CodegenConfig } from "@graphql-codegen/cli";
import { addTypenameSelectionDocumentTransform } from "@graphql-codegen/client-preset";

// The client preset writes src/gql/: typed documents for every operation and fragment in
// src/, fragment masking (a component sees only the fields its own fragment asks for), and
// persisted-documents.json, the manifest `serve --trusted-documents` reads. Each document keeps
// its text (the cache needs it to normalise answers) and carries its sha256 in __meta__.hash,
// which the links send as the request's documentId. The server runs the manifest's text, not
// what Apollo Client would have sent, so the documents ask for __typename themselves: the cache
// needs it on every object to normalise it (Apollo adds it only to documents it sends).
const config: CodegenConfig = {
  schema: "../schema.graphqls",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
      documentTransforms: [addTypenameSelectionDocumentTransform],
      presetConfig: {
        fragmentMasking: { unmaskFunctionName: "getFragmentData" },
        persistedDocuments: { hashAlgorithm: "sha256", mode: "embedHashInDocument" },
      },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
        scalars: { ID: "string" },
      },
    },
  },
};

export default config;
