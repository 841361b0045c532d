// Sending a photo's file straight to the store (S3, or `serve`'s own /media/) with the signed
// form createPhotoUpload returned, and saying in words why the store refused one.

export interface FormField {
  name: string;
  value: string;
}

/** UploadRefused is a refusal already in words: the store's, or the app's own check. */
export class UploadRefused extends Error {
  name = "UploadRefused";
}

/** The types the server takes (createPhotoUpload refuses others). */
export const acceptedTypes = ["image/jpeg", "image/png", "image/webp"];

/** checkFile says, before anything is sent, why a file cannot be a photo; undefined when it can. */
export function checkFile(file: { type: string; size: number }): string | undefined {
  if (!acceptedTypes.includes(file.type)) return "Choose a JPEG, PNG or WebP picture.";
  if (file.size === 0) return "This file is empty.";
  return undefined;
}

/** formData is the multipart form: every signed field, in order, then the file last, as `file`. */
export function formData(fields: readonly FormField[], file: Blob): FormData {
  const form = new FormData();
  for (const f of fields) form.append(f.name, f.value);
  form.append("file", file);
  return form;
}

/**
 * storeRefusal turns the store's answer to a refused POST (an S3-style XML error, 400 or 403)
 * into a sentence.
 */
export function storeRefusal(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? "";
  switch (code) {
    case "EntityTooLarge":
      return "The file is larger than the upload allowed. Choose a smaller picture.";
    case "EntityTooSmall":
      return "The file is empty.";
    case "AccessDenied":
      return /expir/i.test(body) ? "The upload took too long and expired. Try again." : "The store refused the upload. Try again.";
    case "ExpiredToken":
    case "RequestTimeout":
      return "The upload took too long and expired. Try again.";
    case "InvalidArgument":
    case "InvalidPolicyDocument":
    case "MalformedPOSTRequest":
      return "The store refused this file: it does not match what the upload declared. Try again.";
  }
  if (status === 0) return "The upload did not reach the store: check your connection and try again.";
  return `The store refused the upload (HTTP ${status}). Try again.`;
}

/**
 * postToStore sends the form with XMLHttpRequest, whose upload events report progress (fetch
 * has none for request bodies), calling onProgress with 0 to 1.
 */
export function postToStore(url: string, fields: readonly FormField[], file: Blob, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadRefused(storeRefusal(xhr.status, xhr.responseText)));
      }
    };
    xhr.onerror = () => reject(new UploadRefused(storeRefusal(0, "")));
    xhr.send(formData(fields, file));
  });
}
