// What the links and the queue share about the network.

/** OfflineError: the request never reached the server (no network, or the server is down). */
export class OfflineError extends Error {
  constructor(cause: unknown) {
    super("the server could not be reached", { cause });
    this.name = "OfflineError";
  }
}

/** The server's address: the page's own origin, or VITE_QUICKPHOTOS_API under `npm run dev`. */
export function apiBase(): string {
  const configured = import.meta.env.VITE_QUICKPHOTOS_API as string | undefined;
  return (configured ?? window.location.origin).replace(/\/$/, "");
}

/** The WebSocket URL of the same endpoint: http→ws, https→wss. */
export function websocketURL(httpURL: string): string {
  return httpURL.replace(/^http/, "ws");
}
