import { describe, expect, it } from "vitest";
import { countsAfter } from "./reactions";

describe("countsAfter", () => {
  const counts = { heart: 1, smiley: 0, thumbsUp: 2, sunglasses: 0, total: 3 };
  it("counts a reaction in its type and the total", () => {
    expect(countsAfter(counts, "HEART", 1)).toEqual({ ...counts, heart: 2, total: 4 });
    expect(countsAfter(counts, "THUMBS_UP", -1)).toEqual({ ...counts, thumbsUp: 1, total: 2 });
  });
  it("never counts below zero", () => {
    expect(countsAfter(counts, "SMILEY", -1).smiley).toBe(0);
  });
});
