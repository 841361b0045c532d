// The app's service worker: it keeps the app's own files (the page and its hashed assets) so
// that the app opens with no network, and the photos' images it has shown, which are served
// at signed URLs that never change. GraphQL requests are left to the network: what the app
// shows offline comes from its persisted cache, not from here.
const CACHE = "quickphotos-app-v1";
const scope = new URL(self.registration.scope);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch(scope.href, { cache: "no-cache" });
      const html = await page.clone().text();
      await cache.put(scope.href, page);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+\/assets\/[^"]+)"/g)].map((m) => new URL(m[1], scope).href);
      await cache.addAll(assets);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== scope.origin) return;
  if (req.mode === "navigate" && url.pathname.startsWith(scope.pathname)) {
    // The page: the network's when there is one (a new build), else the kept one.
    event.respondWith(
      fetch(req)
        .then(async (res) => {
          if (res.ok) await (await caches.open(CACHE)).put(scope.href, res.clone());
          return res;
        })
        .catch(async () => (await caches.match(scope.href)) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith(`${scope.pathname}assets/`) || url.pathname.startsWith("/media/")) {
    // Content-hashed assets and signed image URLs never change: the kept copy is the file.
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ??
          fetch(req).then(async (res) => {
            if (res.ok) await (await caches.open(CACHE)).put(req, res.clone());
            return res;
          }),
      ),
    );
  }
});
