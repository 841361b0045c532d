import { describe, expect, it } from "vitest";
import { checkFile, formData, storeRefusal } from "./storeForm";

describe("upload form", () => {
  it("refuses, before sending, what the server would refuse by type or emptiness", () => {
    expect(checkFile({ type: "image/svg+xml", size: 10 })).toMatch(/JPEG, PNG or WebP/);
    expect(checkFile({ type: "image/jpeg", size: 0 })).toMatch(/empty/);
    expect(checkFile({ type: "image/webp", size: 10 })).toBeUndefined();
  });

  it("puts the signed fields first, in order, and the file last", () => {
    const form = formData(
      [
        { name: "key", value: "u/1" },
        { name: "policy", value: "p" },
      ],
      new Blob(["x"], { type: "image/jpeg" }),
    );
    expect([...form.keys()]).toEqual(["key", "policy", "file"]);
  });

  it("says why the store refused, from its XML error", () => {
    expect(storeRefusal(400, "<Error><Code>EntityTooLarge</Code><Message>too big</Message></Error>")).toMatch(/larger than/);
    expect(storeRefusal(403, "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>")).toMatch(/expired/);
    expect(storeRefusal(0, "")).toMatch(/did not reach/);
    expect(storeRefusal(500, "oops")).toMatch(/HTTP 500/);
  });
});
