// The app's screens by URL hash (#/u/ada), so that every screen has a link and the server
// serves one page at /app/ whatever the screen.

export type Route =
  | { screen: "feed" }
  | { screen: "profile"; username: string }
  | { screen: "photo"; owner: string; timestamp: string }
  | { screen: "upload" }
  | { screen: "settings" }
  | { screen: "notFound"; path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "") || "/";
  const parts = path.split("/").filter((p) => p !== "").map(decodeURIComponent);
  const [first, a, b] = parts;
  if (parts.length === 0) return { screen: "feed" };
  if (first === "u" && a !== undefined && parts.length === 2) return { screen: "profile", username: a };
  if (first === "p" && a !== undefined && b !== undefined && parts.length === 3) return { screen: "photo", owner: a, timestamp: b };
  if (first === "upload" && parts.length === 1) return { screen: "upload" };
  if (first === "settings" && parts.length === 1) return { screen: "settings" };
  return { screen: "notFound", path };
}

export function href(route: Route): string {
  switch (route.screen) {
    case "feed":
      return "#/";
    case "profile":
      return `#/u/${encodeURIComponent(route.username)}`;
    case "photo":
      return `#/p/${encodeURIComponent(route.owner)}/${encodeURIComponent(route.timestamp)}`;
    case "upload":
      return "#/upload";
    case "settings":
      return "#/settings";
    case "notFound":
      return `#${route.path}`;
  }
}
