import { describe, expect, it } from "vitest";
import { changes, currentOf } from "./updateProfile";

describe("profile edits", () => {
  it("sends only the fields that changed, an emptied one as null", () => {
    expect(changes({ name: "Ada", status: "hi" }, { name: "Ada L", status: "" })).toEqual({ name: "Ada L", status: null });
    expect(changes({ name: "Ada", status: "" }, { name: "Ada", status: "" })).toEqual({});
  });

  it("reads the profile a stale version's CONFLICT carries", () => {
    expect(currentOf({ code: "CONFLICT", current: { name: "Ada", status: null, version: 7 } })).toEqual({ name: "Ada", status: "", version: 7 });
    expect(currentOf({ code: "CONFLICT" })).toBeUndefined();
  });
});
