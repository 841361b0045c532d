// Whether the browser says it is online, and a way to wait until it is.

export interface OnlineSource {
  isOnline(): boolean;
  /** listen calls fn on every change; returns a function that stops it. */
  listen(fn: () => void): () => void;
}

/** browserOnline reads navigator.onLine and the window's online and offline events. */
export function browserOnline(win: Window = window): OnlineSource {
  return {
    isOnline: () => win.navigator.onLine,
    listen: (fn) => {
      win.addEventListener("online", fn);
      win.addEventListener("offline", fn);
      return () => {
        win.removeEventListener("online", fn);
        win.removeEventListener("offline", fn);
      };
    },
  };
}

export class Connectivity {
  private readonly listeners = new Set<(online: boolean) => void>();
  private last: boolean;

  constructor(source: OnlineSource) {
    this.last = source.isOnline();
    source.listen(() => {
      const now = source.isOnline();
      if (now === this.last) return;
      this.last = now;
      for (const l of [...this.listeners]) l(now);
    });
  }

  get online(): boolean {
    return this.last;
  }

  /** subscribe calls fn with the new state on every change. */
  subscribe(fn: (online: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  whenOnline(): Promise<void> {
    if (this.last) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe((online) => {
        if (online) {
          stop();
          resolve();
        }
      });
    });
  }
}
