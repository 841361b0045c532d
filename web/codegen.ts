import type { CodegenConfig } from "@graphql-codegen/cli";

// The client preset writes src/gql/: typed documents for every operation and fragment in
// src/, fragment masking (a component sees only the fields its own fragment asks for), and
// persisted-documents.json, the manifest `serve --trusted-documents` reads. Each document keeps
// its text (the cache needs it to normalise answers) and carries its sha256 in __meta__.hash,
// which the links send as the request's documentId.
const config: CodegenConfig = {
  schema: "../schema.graphqls",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
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
