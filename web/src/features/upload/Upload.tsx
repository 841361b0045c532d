import { useApolloClient } from "@apollo/client/react";
import { useState } from "react";
import { graphql } from "../../gql";
import { messageFor, refusalOf } from "../../lib/errors";
import { href } from "../../lib/router";
import { useOnline, useServices } from "../../lib/services";
import { newMutationId } from "../../offline/queue";
import { acceptedTypes, checkFile, postToStore, UploadRefused } from "./storeForm";

const CreatePhotoUploadMutation = graphql(`
  mutation CreatePhotoUpload($input: CreatePhotoUploadInput!) {
    createPhotoUpload(input: $input) {
      uploadId
      url
      fields {
        name
        value
      }
      expires
      maxBytes
    }
  }
`);

const FinishPhotoUploadMutation = graphql(`
  mutation FinishPhotoUpload($input: UploadPhotoInput!) {
    uploadPhoto(input: $input) {
      id
      username
      timestamp
      ...PhotoCard_photo
    }
  }
`);

type Step = { at: "choose" } | { at: "sending"; fraction: number } | { at: "finishing" } | { at: "failed"; message: string };

/**
 * Upload: createPhotoUpload says where to send the file, the browser POSTs it straight to the
 * store (a progress bar follows it), and uploadPhoto makes the photo of it. Each step has its
 * own clientMutationId, so a retry after a lost answer is safe. Uploads need the network: they
 * are not queued.
 */
export function Upload() {
  const client = useApolloClient();
  const { session } = useServices();
  const online = useOnline();
  const [step, setStep] = useState<Step>({ at: "choose" });

  const send = async (file: File) => {
    const wrong = checkFile(file);
    if (wrong !== undefined) {
      setStep({ at: "failed", message: wrong });
      return;
    }
    setStep({ at: "sending", fraction: 0 });
    try {
      const created = await client.mutate({
        mutation: CreatePhotoUploadMutation,
        variables: { input: { owner: session.username, contentType: file.type, byteSize: file.size, clientMutationId: newMutationId() } },
      });
      const form = created.data?.createPhotoUpload;
      if (!form) throw new UploadRefused("the server did not answer the upload");
      if (file.size > form.maxBytes) throw new UploadRefused(`The file is larger than the ${form.maxBytes} bytes allowed.`);
      await postToStore(form.url, form.fields, file, (fraction) => setStep({ at: "sending", fraction }));
      setStep({ at: "finishing" });
      const made = await client.mutate({
        mutation: FinishPhotoUploadMutation,
        variables: { input: { owner: session.username, upload: form.uploadId, clientMutationId: newMutationId() } },
      });
      const photo = made.data?.uploadPhoto;
      if (!photo) throw new UploadRefused("the server did not answer the upload");
      window.location.hash = href({ screen: "photo", owner: photo.username, timestamp: photo.timestamp });
    } catch (err) {
      const message =
        err instanceof UploadRefused
          ? err.message
          : messageFor(err, {
              BAD_USER_INPUT: `The server could not make a photo of this file: ${refusalOf(err).message}`,
              FORBIDDEN: "You can only upload photos as yourself.",
              NOT_FOUND: "Create your profile before uploading photos.",
              CONFLICT: "This upload was already used. Choose the file again.",
              OFFLINE: "You are offline: uploads need a connection.",
            });
      setStep({ at: "failed", message });
    }
  };

  return (
    <section>
      <h1>Upload a photo</h1>
      {!online && <p role="status">You are offline: uploads need a connection.</p>}
      <label className="file-choose">
        Choose a photo
        <input
          type="file"
          accept={acceptedTypes.join(",")}
          disabled={!online || step.at === "sending" || step.at === "finishing"}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file);
          }}
        />
      </label>
      {step.at === "sending" && (
        <p>
          <label>
            Sending {Math.round(step.fraction * 100)}%{" "}
            <progress max={1} value={step.fraction}>
              {Math.round(step.fraction * 100)}%
            </progress>
          </label>
        </p>
      )}
      {step.at === "finishing" && <p role="status">Making your photo…</p>}
      {step.at === "failed" && <p role="alert">{step.message}</p>}
    </section>
  );
}
