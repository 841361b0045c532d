import { describe, expect, it } from "vitest";
import { href, parseRoute, type Route } from "./router";

describe("router", () => {
  it("reads back every screen's link", () => {
    const routes: Route[] = [
      { screen: "feed" },
      { screen: "profile", username: "ada.l-1" },
      { screen: "photo", owner: "miawright", timestamp: "2019-07-18T23:12:03" },
      { screen: "upload" },
      { screen: "settings" },
    ];
    for (const r of routes) expect(parseRoute(href(r))).toEqual(r);
  });

  it("names what it does not know", () => {
    expect(parseRoute("#/u/a/b")).toEqual({ screen: "notFound", path: "/u/a/b" });
    expect(parseRoute("")).toEqual({ screen: "feed" });
  });
});
