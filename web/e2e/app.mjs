// The web app's browser tests, run by web_browser_test.go against a real `quickphotos serve`
// (loopback, the embedded store, the app's trusted documents enforced) in Debian's Chromium,
// driven by playwright-core. Nothing is downloaded; every request to another host is aborted.
//
// Environment: QP_BASE (the server's base URL), QP_OUT (where failure screenshots go),
// QP_JPEGS (two JPEG files, comma-separated), QP_MANIFEST (the app's persisted-documents.json),
// QP_CHROMIUM (the browser's path).
//
// The scenarios, in order, in two browser contexts signed in as two new users, A and B:
//  1. B follows A; A uploads a JPEG through the file chooser with a progress bar; B's open feed
//     shows it without a reload (the delay is logged). An SVG and a file that only claims to
//     be a JPEG are refused with messages a person understands.
//  2. B reacts: the reaction shows while the server has not answered (the request is held);
//     then a refusal injected by route interception rolls a reaction back and shows a message.
//  3. B goes offline, reloads, still sees its feed; reacts, follows and edits its profile offline
//     (three pending changes, still pending after another reload); meanwhile A deletes a photo
//     (shown from its cache while the page's request is held, as during a refetch, when Apollo
//     Client also delivers partial answers) and edits its profile; B comes back: each queued
//     mutation is sent once, B's feed shows the deletion and A's new name from the change log (B asks for SyncChanges by its document id
//     and reads neither the feed nor its viewer state again), and B's screens agree with the
//     server, read by document id with B's token. B types an edit while its profile is edited
//     elsewhere: the catch-up does not touch what B typed, saving shows the conflict, and B's is
//     then saved over the current one. Then, B online and idle on its feed, A renames itself:
//     B's feed shows it after a changesAvailable poke and a catch-up, with no reload and no
//     feed query. B reloads offline with a token the server no longer accepts, a reaction
//     waiting: back online it is answered UNAUTHENTICATED, stays waiting, and the app asks B to
//     sign in again as B, after which it goes, once. Signing out with a change waiting warns
//     how many would be lost; signed out, nothing of B's is left in localStorage.
//  4. axe-core on every screen: no serious or critical violations. Infinite scroll: the feed of
//     a sample user who follows many loads page after page as its end scrolls into view.
//  5. The time from navigation to the feed's first photo (its image loaded), on the sample,
//     logged: on a first visit, and with the app and its saved cache.
// Each step prints a line; a failure saves a screenshot of every page to QP_OUT, prints the
// paths, and exits 1.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const base = process.env.QP_BASE;
const out = process.env.QP_OUT;
const jpegs = (process.env.QP_JPEGS ?? "").split(",");
const manifest = JSON.parse(readFileSync(process.env.QP_MANIFEST, "utf8"));
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const log = (...a) => console.log("e2e:", ...a);
const loopback = /^(https?|wss?):\/\/127\.0\.0\.1[:/]/;

/** The document id of the operation named name, from the manifest (fragments come first in its texts). */
function documentId(name) {
  const named = new RegExp(`(^|\\s)(query|mutation|subscription) ${name}[\\s({]`);
  const found = Object.entries(manifest).find(([, text]) => named.test(text));
  if (!found) throw new Error(`no document named ${name} in the manifest`);
  return found[0];
}

/** ask runs one of the app's documents against the server, as the app would, with token. */
async function ask(name, variables, token) {
  const res = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ documentId: documentId(name), operationName: name, variables }),
  });
  const body = await res.json();
  if (body.errors) throw new Error(`${name}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function waitUntil(what, fn, ms = 20000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await chromium.launch({
  executablePath: process.env.QP_CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  // playwright-core gives each launch a fresh, temporary user-data-dir of its own.
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

const pages = [];
/** A browser context of its own (its own storage and service worker), with one page. */
async function person(label) {
  // bypassCSP lets axe-core's script in; the app's own CSP is checked by web/web_test.go.
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1000, height: 900 } });
  await context.route((url) => !loopback.test(url.href), (route) => route.abort());
  const counts = {};
  const documentIds = {};
  const interceptors = [];
  await context.route("**/graphql", async (route) => {
    const body = route.request().postDataJSON();
    const op = body?.operationName ?? "?";
    counts[op] = (counts[op] ?? 0) + 1;
    (documentIds[op] ??= new Set()).add(body?.documentId);
    for (const handle of interceptors) if (await handle(route, op)) return;
    await route.continue();
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => log(`${label}: page error: ${e.stack ?? e}`));
  page.on("console", (m) => m.type() === "error" && !/Failed to load resource|ERR_INTERNET_DISCONNECTED|ERR_FAILED/.test(m.text()) && log(`${label}: console: ${m.text()}`));
  pages.push({ label, page });
  return { label, context, page, counts, documentIds, interceptors };
}

/** holdNext holds p's next request of operation op: it resolves to the request's route, which
 * goes on to the server only when the test continues it. */
function holdNext(p, op) {
  return new Promise((resolve) => {
    let held = false;
    p.interceptors.push(async (route, name) => {
      if (name !== op || held) return false;
      held = true;
      resolve(route);
      return true;
    });
  });
}

const axeChecked = [];
async function axe(p, screen) {
  await p.page.addScriptTag({ content: axeSource });
  const result = await p.page.evaluate(async () => {
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length > 0) throw new Error(`axe on ${screen}: ${JSON.stringify(bad)}`);
  axeChecked.push(`${screen} (${result.length} minor)`);
}

async function signIn(p, username, name) {
  await p.page.goto(`${base}/app/`);
  await p.page.getByLabel("Username").waitFor();
  if (name) {
    await axe(p, "sign in");
    // The page names its icon: without one, browsers ask the server's root for /favicon.ico,
    // which serves no such file.
    if ((await p.page.locator('link[rel="icon"]').count()) === 0) throw new Error("the page names no icon: browsers ask for /favicon.ico and get 404");
    // The username's description suggests a user of the sample (the README's).
    const hint = await p.page.getByLabel("Username").getAttribute("aria-describedby");
    const suggested = hint && (await p.page.locator(`[id="${hint}"]`).textContent());
    if (!suggested?.includes("miawright")) throw new Error(`the sign-in screen suggests no sample user: ${JSON.stringify(suggested)}`);
  }
  await p.page.getByLabel("Username").fill(username);
  await p.page.getByRole("button", { name: "Sign in", exact: true }).click();
  if (name) {
    await p.page.getByLabel("Your name").waitFor();
    await axe(p, "create profile");
    await p.page.getByLabel("Your name").fill(name);
    await p.page.getByRole("button", { name: "Create my profile" }).click();
  }
  await p.page.getByRole("heading", { name: "Your feed" }).waitFor();
  return p.page.evaluate(() => JSON.parse(localStorage.getItem("quickphotos.session")).token);
}

const go = (p, hash) => p.page.evaluate((h) => (window.location.hash = h), hash);

/** upload sends file through the file chooser and returns the photo page's hash. */
async function upload(p, file) {
  await go(p, "#/upload");
  await p.page.getByRole("heading", { name: "Upload a photo" }).waitFor();
  const chooser = p.page.waitForEvent("filechooser");
  await p.page.getByText("Choose a photo").click();
  const finished = p.page.waitForResponse((r) => r.url().endsWith("/graphql") && r.request().postDataJSON()?.operationName === "FinishPhotoUpload");
  // The bar may come and go within a frame over loopback: an observer sees every change.
  await p.page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const bar = document.querySelector("progress");
      if (bar) window.__progress.push(Number(bar.value));
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await (await chooser).setFiles(file);
  await finished;
  const at = Date.now();
  const progress = await p.page.evaluate(() => window.__progress);
  await p.page.getByRole("heading", { name: "Photo", exact: true }).waitFor();
  return { hash: await p.page.evaluate(() => window.location.hash), at, sawProgress: progress.length > 0 };
}

/** refusedUpload chooses file and returns what the upload screen says of its refusal. */
async function refusedUpload(p, file) {
  await go(p, "#/upload");
  await p.page.getByRole("heading", { name: "Upload a photo" }).waitFor();
  const chooser = p.page.waitForEvent("filechooser");
  await p.page.getByText("Choose a photo").click();
  await (await chooser).setFiles(file);
  const said = p.page.locator("section p[role=alert]");
  await said.waitFor();
  return said.innerText();
}

/**
 * expectCatchUp checks that since counts `since`, p asked for pages of changes (by the
 * manifest's document id) and did not read its feed, its viewer state or a new sync's start.
 */
function expectCatchUp(p, since, when) {
  const asked = (op) => (p.counts[op] ?? 0) - (since[op] ?? 0);
  if (asked("SyncChanges") < 1) throw new Error(`${p.label} asked for no changes ${when}`);
  const ids = [...(p.documentIds.SyncChanges ?? [])];
  if (ids.length !== 1 || ids[0] !== documentId("SyncChanges")) throw new Error(`${p.label} asked for changes with document ids ${ids}, not the manifest's`);
  for (const op of ["Feed", "ViewerState", "SyncStart"]) {
    if (asked(op) !== 0) throw new Error(`${p.label} read ${op} ${asked(op)} times ${when}: the change log should have been enough`);
  }
}

const card = (p, hash) => p.page.locator(`article.photo-card:has(a[href="${hash}"])`);
const reaction = (p, hash, type) => card(p, hash).locator(`button[data-reaction="${type}"]`);

try {
  const suffix = Date.now().toString(36);
  const aName = `alice${suffix}`;
  const bName = `bob${suffix}`;
  const A = await person("A");
  const B = await person("B");
  await signIn(A, aName, "Alice");
  const bToken = await signIn(B, bName, "Bob");
  await axe(B, "feed");
  log("A and B signed in and made their profiles");

  // 1. B follows A, then A's upload reaches B's open feed live.
  await go(B, `#/u/${aName}`);
  await B.page.getByRole("button", { name: "Follow", exact: true }).click();
  await B.page.getByRole("button", { name: "Unfollow", exact: true }).waitFor();
  await waitUntil("A's follower count 1 on B's screen", async () => (await B.page.locator('dd[data-count="followers"]').innerText()) === "1");
  await axe(B, "profile");
  await go(B, "#/");
  await B.page.getByText("No photos yet").waitFor();
  await go(A, "#/upload");
  await axe(A, "upload");
  const p1 = await upload(A, jpegs[0]);
  if (!p1.sawProgress) throw new Error("no progress bar was shown while the file was sent");
  await card(B, p1.hash).waitFor({ timeout: 30000 });
  log(`live: B's open feed showed A's upload ${Date.now() - p1.at} ms after uploadPhoto answered (no reload)`);
  // The image loads from the store a moment after the page shows (two cores, shared).
  const loaded = await A.page
    .waitForFunction(() => {
      const img = document.querySelector("article.photo-card img");
      return img !== null && img.complete && img.naturalWidth > 0;
    }, null, { timeout: 10000 })
    .then(() => true, () => false);
  if (!loaded) throw new Error("A's photo page shows no image");
  await axe(A, "photo");

  // The upload's refusals, in words: a type the server does not take (refused before sending),
  // and a file that claims to be a JPEG but is not one (refused by uploadPhoto).
  const svg = await refusedUpload(A, { name: "drawing.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
  if (svg !== "Choose a JPEG, PNG or WebP picture.") throw new Error(`an SVG: ${svg}`);
  const fake = await refusedUpload(A, { name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("these bytes are not a JPEG at all") });
  if (!fake.startsWith("The server could not make a photo of this file:")) throw new Error(`a file that is not a JPEG: ${fake}`);
  log(`upload refusals: an SVG: "${svg}"; a fake JPEG: "${fake}"`);

  // 2. An optimistic reaction shows before the server answers; a refusal rolls one back.
  const held = holdNext(B, "ReactToPhoto");
  await reaction(B, p1.hash, "HEART").click();
  const heldRoute = await held;
  await waitUntil("the heart counted while the server has not answered", async () => (await reaction(B, p1.hash, "HEART").getAttribute("aria-label")) === "heart: 1");
  if ((await reaction(B, p1.hash, "HEART").getAttribute("aria-pressed")) !== "true") throw new Error("the held reaction is not shown as B's");
  await heldRoute.continue();
  B.interceptors.length = 0;
  await waitUntil("no pending change after the answer", async () => (await B.page.locator(".pending-list").count()) === 0);
  const afterHeart = await ask("Photo", { owner: aName, timestamp: decodeURIComponent(p1.hash.split("/")[3]) }, bToken);
  if (afterHeart.photo.reactionCounts.heart !== 1) throw new Error(`the server counts ${afterHeart.photo.reactionCounts.heart} hearts`);
  log("optimistic: B's heart showed while its request was held, and the server counted it");

  B.interceptors.push(async (route, op) => {
    if (op !== "ReactToPhoto") return false;
    await new Promise((r) => setTimeout(r, 300)); // long enough to see the optimistic count
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ errors: [{ message: "refused by the test", extensions: { code: "FORBIDDEN" } }], data: null }) });
    return true;
  });
  await reaction(B, p1.hash, "SMILEY").click();
  await waitUntil("the smiley shown optimistically", async () => (await reaction(B, p1.hash, "SMILEY").getAttribute("aria-label")) === "smiley: 1", 2000);
  await waitUntil("the smiley rolled back", async () => (await reaction(B, p1.hash, "SMILEY").getAttribute("aria-label")) === "smiley: 0");
  const refusal = B.page.locator(".failure").filter({ hasText: "You are not allowed to do that." });
  await refusal.waitFor();
  if (!(await refusal.innerText()).includes("smiley on")) throw new Error(`the refusal does not say what was refused: ${await refusal.innerText()}`);
  await refusal.getByRole("button", { name: "Dismiss" }).click();
  await waitUntil("the refusal dismissed", async () => (await refusal.count()) === 0);
  B.interceptors.length = 0;
  log("rollback: the refused smiley rolled back and B was told why");

  // 3. Offline. B first opens the screens it will use offline (their data is cached), and A
  // uploads a second photo, which B's feed gets live.
  await go(B, "#/u/miawright");
  await B.page.getByRole("button", { name: "Follow", exact: true }).waitFor();
  await go(B, "#/settings");
  await B.page.getByLabel("Status").waitFor();
  await axe(B, "edit profile");
  await go(B, "#/");
  const p2 = await upload(A, jpegs[1]);
  await card(B, p2.hash).waitFor({ timeout: 30000 });
  await B.page.waitForTimeout(500); // the cache is saved a moment after each answer

  await B.context.setOffline(true);
  await B.page.reload();
  await B.page.getByText("Offline: showing what was saved").waitFor();
  await card(B, p1.hash).waitFor();
  await card(B, p2.hash).waitFor();
  log("offline: B reloaded with no network and still sees its feed");
  const before = { ...B.counts };
  await reaction(B, p2.hash, "THUMBS_UP").click();
  await waitUntil("the offline thumbs up shown", async () => (await reaction(B, p2.hash, "THUMBS_UP").getAttribute("aria-label")) === "thumbs up: 1");
  await go(B, "#/u/miawright");
  await B.page.getByRole("button", { name: "Follow", exact: true }).click();
  await B.page.getByRole("button", { name: "Unfollow", exact: true }).waitFor();
  await go(B, "#/settings");
  await B.page.getByLabel("Status").fill("on a train");
  await B.page.getByRole("button", { name: "Save", exact: true }).click();
  await B.page.getByText("3 changes waiting to be sent").waitFor();
  await B.page.reload();
  await B.page.getByText("3 changes waiting to be sent").waitFor();
  await go(B, "#/");
  await waitUntil("the pending thumbs up shown again after the reload", async () => (await reaction(B, p2.hash, "THUMBS_UP").getAttribute("aria-label")) === "thumbs up: 1");
  log("offline: three changes pending, kept and shown across a reload");

  // Meanwhile A deletes the first photo and renames itself. A comes back to the photo's page
  // with the page's own request held: A sees the photo from its cache while a request is in
  // flight, as when the sync step refetches, and deleting it must not break the page.
  await go(A, p1.hash);
  await A.page.getByRole("button", { name: "Delete this photo" }).waitFor();
  await go(A, "#/");
  const photoRequested = holdNext(A, "Photo");
  await go(A, p1.hash);
  const heldPhoto = await photoRequested;
  A.interceptors.length = 0;
  await A.page.getByRole("button", { name: "Delete this photo" }).click();
  await waitUntil("A's delete answered", async () => (await A.page.locator(".pending-list").count()) === 0 && (await ask("Photo", { owner: aName, timestamp: decodeURIComponent(p1.hash.split("/")[3]) }, bToken)).photo === null);
  await heldPhoto.continue();
  log("delete: A deleted the photo it saw from its cache while the page's request was held");
  await go(A, "#/settings");
  await A.page.getByLabel("Name").fill("Alice Liddell");
  await A.page.getByRole("button", { name: "Save", exact: true }).click();
  await waitUntil("A's rename answered", async () => (await ask("Profile", { username: aName }, bToken)).user !== null && (await A.page.locator(".pending-list").count()) === 0);
  for (const op of ["ReactToPhoto", "FollowUser", "UpdateProfile"]) {
    if ((B.counts[op] ?? 0) !== (before[op] ?? 0)) throw new Error(`B sent ${op} while offline`);
  }

  const back = Date.now();
  const atBack = { ...B.counts };
  await B.context.setOffline(false);
  await waitUntil("B's queue drained", async () => (await B.page.locator(".pending-list").count()) === 0);
  log(`online: B's queue drained ${Date.now() - back} ms after the network came back`);
  await B.page.waitForTimeout(1500); // a second drain would show by now
  for (const op of ["ReactToPhoto", "FollowUser", "UpdateProfile"]) {
    const sent = (B.counts[op] ?? 0) - (before[op] ?? 0);
    if (sent !== 1) throw new Error(`B sent ${op} ${sent} times after coming back, want once`);
  }
  if ((await B.page.locator(".failure").count()) !== 0) throw new Error(`a queued change was refused: ${await B.page.locator(".failure").first().innerText()}`);

  // B's open feed catches up from the change log: the deleted photo goes, A's new name shows,
  // and the only reads were pages of changes, not the feed or the viewer's state again.
  await waitUntil("the deleted photo gone from B's open feed", async () => (await card(B, p1.hash).count()) === 0);
  await waitUntil("B's open feed shows A's new name", async () => (await card(B, p2.hash).locator("header a").first().innerText()) === "Alice Liddell");
  expectCatchUp(B, atBack, "after coming back online");
  log(`catch-up: B's feed shows A's deletion and new name from ${(B.counts.SyncChanges ?? 0) - (atBack.SyncChanges ?? 0)} request(s) for changes, without reading the feed again`);

  // B's screens and the server agree.
  const server = {
    p2: (await ask("Photo", { owner: aName, timestamp: decodeURIComponent(p2.hash.split("/")[3]) }, bToken)).photo,
    p1: (await ask("Photo", { owner: aName, timestamp: decodeURIComponent(p1.hash.split("/")[3]) }, bToken)).photo,
    mia: (await ask("Profile", { username: "miawright" }, bToken)).user,
  };
  if (server.p1 !== null) throw new Error("the deleted photo is still on the server");
  if (server.p2.reactionCounts.thumbsUp !== 1) throw new Error(`the server counts ${server.p2.reactionCounts.thumbsUp} thumbs up`);
  await go(B, "#/settings");
  await waitUntil("B's settings show the saved status", async () => (await B.page.getByLabel("Status").inputValue()) === "on a train");
  const bobServer = (await ask("EditProfile", {}, bToken)).viewer;
  if (bobServer.status !== "on a train") throw new Error(`the server has B's status ${JSON.stringify(bobServer.status)}`);
  await go(B, "#/");
  await waitUntil("the deleted photo gone from B's feed", async () => (await card(B, p1.hash).count()) === 0);
  await waitUntil("B's feed shows the server's thumbs up", async () => (await reaction(B, p2.hash, "THUMBS_UP").getAttribute("aria-label")) === "thumbs up: 1");
  await waitUntil("B's feed shows A's new name", async () => (await card(B, p2.hash).locator("header a").first().innerText()) === "Alice Liddell");
  await go(B, "#/u/miawright");
  await B.page.getByRole("button", { name: "Unfollow", exact: true }).waitFor();
  await waitUntil("miawright's follower count as the server has it", async () => (await B.page.locator('dd[data-count="followers"]').innerText()) === String(server.mia.followerCount));
  log(`sync: B's feed, profile screens and settings agree with the server (miawright has ${server.mia.followerCount} followers)`);

  // A conflict: B's profile changes elsewhere (another device, here a request with B's token)
  // while B is typing an edit of the older version; B's catch-up brings the other edit in, but
  // the form stays on the version B started from, so B's save is refused with CONFLICT, both
  // versions are shown, and B's is saved over the current one.
  await go(B, "#/settings");
  await B.page.getByLabel("Name").waitFor();
  await B.page.waitForTimeout(1000); // the screen's own read and any catch-up are over
  await B.page.getByLabel("Name").fill("Bob from the browser");
  const typing = B.counts.SyncChanges ?? 0;
  await ask("UpdateProfile", { username: bName, input: { name: "Bob from the phone" } }, bToken);
  await waitUntil("B caught up with the phone's edit", async () => (B.counts.SyncChanges ?? 0) > typing);
  await B.page.waitForTimeout(500);
  if ((await B.page.getByLabel("Name").inputValue()) !== "Bob from the browser") throw new Error("the catch-up replaced what B was typing");
  await B.page.getByRole("button", { name: "Save", exact: true }).click();
  const conflict = B.page.locator(".conflict");
  await conflict.waitFor();
  const shown = await conflict.innerText();
  if (!shown.includes("Bob from the phone") || !shown.includes("Bob from the browser")) throw new Error(`the conflict does not show both versions: ${shown}`);
  await axe(B, "edit profile with a conflict");
  await conflict.getByRole("button", { name: "Save mine over it" }).click();
  await waitUntil("B's name saved over the other", async () => (await ask("EditProfile", {}, bToken)).viewer.name === "Bob from the browser");
  if ((await B.page.locator(".failure").count()) !== 0) throw new Error("the conflict was also listed as a failure");
  log("conflict: B's stale edit was refused, both versions shown, and B's saved over the current one");

  // The poke: B online and idle on its feed; A renames itself; the server's changesAvailable
  // tells B, whose catch-up brings the new name into the feed it shows.
  await go(B, "#/");
  await card(B, p2.hash).waitFor();
  await B.page.waitForTimeout(1500); // the feed's own read and any catch-up are over
  const idle = { ...B.counts };
  await go(A, "#/settings");
  await A.page.getByLabel("Name").fill("Alice Pleasance");
  await A.page.getByRole("button", { name: "Save", exact: true }).click();
  const renamed = Date.now();
  await waitUntil("B's idle feed shows A's newer name", async () => (await card(B, p2.hash).locator("header a").first().innerText()) === "Alice Pleasance", 30000);
  expectCatchUp(B, idle, "after A's rename while B was idle");
  log(`poke: B's idle feed showed A's rename ${Date.now() - renamed} ms after A saved it, by changesAvailable and a catch-up`);

  // A token the server no longer accepts (expired, or signed with the key of a development
  // server since restarted): B reacts offline and reloads with such a token. Back online, the
  // reaction is answered UNAUTHENTICATED: it stays waiting and shown, nothing is listed as not
  // saved, and the app asks B to sign in again as B. Signed in again, the reaction goes, once.
  await B.context.setOffline(true);
  await B.page.reload();
  await B.page.getByText("Offline: showing what was saved").waitFor();
  await reaction(B, p2.hash, "SUNGLASSES").click();
  await B.page.getByText("1 change waiting to be sent").waitFor();
  const badToken = bToken.slice(0, -8) + (bToken.endsWith("AAAAAAAA") ? "BBBBBBBB" : "AAAAAAAA");
  await B.page.evaluate((t) => localStorage.setItem("quickphotos.session", JSON.stringify({ ...JSON.parse(localStorage.getItem("quickphotos.session")), token: t })), badToken);
  await B.page.reload();
  await B.page.getByText("1 change waiting to be sent").waitFor();
  const beforeRefusal = B.counts.ReactToPhoto ?? 0;
  await B.context.setOffline(false);
  const signInAgain = B.page.getByRole("region", { name: "Sign in again" });
  await signInAgain.waitFor();
  await waitUntil("the reaction sent with the refused token", async () => (B.counts.ReactToPhoto ?? 0) - beforeRefusal === 1);
  await B.page.waitForTimeout(1000); // a retry, or a refusal listed, would show by now
  if ((await B.page.locator(".failure").count()) !== 0) throw new Error(`a change answered UNAUTHENTICATED was listed as not saved: ${await B.page.locator(".failure").first().innerText()}`);
  if ((B.counts.ReactToPhoto ?? 0) - beforeRefusal !== 1) throw new Error("the reaction was sent again before B signed in again");
  await B.page.getByText("1 change waiting to be sent").waitFor();
  if ((await reaction(B, p2.hash, "SUNGLASSES").getAttribute("aria-pressed")) !== "true") throw new Error("the waiting reaction is no longer shown");
  if (!(await signInAgain.innerText()).includes("The change waiting will be sent once you have")) throw new Error(`the sign-in prompt does not mention the waiting change: ${await signInAgain.innerText()}`);
  await axe(B, "sign in again");
  await signInAgain.getByRole("button", { name: `Sign in again as ${bName}` }).click();
  await waitUntil("B's queue drained after signing in again", async () => (await B.page.locator(".pending-list").count()) === 0);
  await waitUntil("the prompt gone", async () => (await signInAgain.count()) === 0);
  if ((B.counts.ReactToPhoto ?? 0) - beforeRefusal !== 2) throw new Error(`B sent the reaction ${(B.counts.ReactToPhoto ?? 0) - beforeRefusal} times, want twice (refused, then sent)`);
  const renewed = await B.page.evaluate(() => JSON.parse(localStorage.getItem("quickphotos.session")));
  if (renewed.username !== bName || renewed.token === badToken) throw new Error(`B's stored session after signing in again: ${JSON.stringify(renewed)}`);
  const withSunglasses = (await ask("Photo", { owner: aName, timestamp: decodeURIComponent(p2.hash.split("/")[3]) }, renewed.token)).photo;
  if (withSunglasses.reactionCounts.sunglasses !== 1) throw new Error(`the server counts ${withSunglasses.reactionCounts.sunglasses} sunglasses`);
  if ((await B.page.locator(".failure").count()) !== 0) throw new Error("a change was listed as not saved after signing in again");
  log("sign in again: a reaction answered UNAUTHENTICATED waited, shown, until B signed in again as B, then went once; nothing was lost");

  // Signing out with a change waiting says how many would be lost, and can be called off;
  // signed out, nothing of B's stays in the browser's storage.
  await B.context.setOffline(true);
  await reaction(B, p2.hash, "HEART").click();
  await B.page.getByText("1 change waiting to be sent").waitFor();
  await B.page.getByRole("button", { name: `Sign out ${bName}` }).click();
  const warning = B.page.getByRole("alert").filter({ hasText: "Signing out loses the 1 change waiting to be sent" });
  await warning.waitFor();
  await axe(B, "sign-out warning");
  await warning.getByRole("button", { name: "Stay signed in" }).click();
  await waitUntil("the warning gone", async () => (await warning.count()) === 0);
  await B.page.getByText("1 change waiting to be sent").waitFor();
  await B.page.getByRole("button", { name: `Sign out ${bName}` }).click();
  await warning.getByRole("button", { name: "Sign out and lose it" }).click();
  await B.page.getByRole("heading", { name: "Sign in to Quick Photos" }).waitFor();
  await B.page.waitForTimeout(1000); // a save scheduled before signing out would have written by now
  const kept = await B.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("quickphotos.")));
  if (kept.length !== 0) throw new Error(`after signing out, the browser's storage still holds ${kept.join(", ")}`);
  log("sign out: B was told the waiting change would be lost and could stay; signed out, nothing of B's was left in storage");

  // Infinite scroll: the sample's zoegarcia follows 16 people, whose 94 photos fill her feed.
  const Z = await person("Z");
  await signIn(Z, "zoegarcia");
  await waitUntil("the first page of the feed", async () => (await Z.page.locator("article.photo-card").count()) === 10);
  const feedRequests = Z.counts.Feed ?? 0;
  await waitUntil(
    "40 photos after scrolling",
    async () => {
      await Z.page.locator(".feed-end").scrollIntoViewIfNeeded();
      return (await Z.page.locator("article.photo-card").count()) >= 40;
    },
    30000,
  );
  const ids = await Z.page.locator("article.photo-card").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-photo-id")));
  if (new Set(ids).size !== ids.length) throw new Error("the feed shows a photo twice");
  log(`infinite scroll: ${ids.length} photos after ${(Z.counts.Feed ?? 0) - feedRequests} more pages, none twice`);
  await Z.context.close();
  pages.splice(pages.findIndex((p) => p.label === "Z"), 1);

  // 5. Navigation to the feed's first photo on the sample, as miawright.
  const timings = { cold: [], warm: [] };
  const signedIn = await (await fetch(`${base}/auth/dev-sign-in`, { method: "POST", body: JSON.stringify({ username: "miawright" }) })).json();
  for (let i = 0; i < 3; i++) {
    const C = await person(`C${i}`);
    await C.context.addInitScript((s) => {
      if (!localStorage.getItem("quickphotos.session")) localStorage.setItem("quickphotos.session", s);
    }, JSON.stringify({ username: "miawright", token: signedIn.token }));
    for (const kind of ["cold", "warm"]) {
      await C.page.goto(`${base}/app/`);
      const ms = await C.page.waitForFunction(
        () => {
          const img = document.querySelector("article.photo-card img");
          return img && img.complete && img.naturalWidth > 0 ? performance.now() : false;
        },
        null,
        { polling: "raf" },
      );
      timings[kind].push(Math.round(await ms.jsonValue()));
      await C.page.waitForTimeout(500);
    }
    await C.context.close();
    pages.splice(pages.findIndex((p) => p.label === `C${i}`), 1);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  log(`first feed photo: ${median(timings.cold)} ms from navigation on a first visit (median of ${timings.cold.join(", ")}), ${median(timings.warm)} ms with the app and its saved cache (median of ${timings.warm.join(", ")})`);

  log(`axe-core: no serious or critical violations on ${axeChecked.join("; ")}`);
  log("passed");
  await browser.close();
} catch (err) {
  log(`FAILED: ${err.stack ?? err}`);
  for (const { label, page } of pages) {
    const file = path.join(out, `failure-${label}.png`);
    try {
      await page.screenshot({ path: file, fullPage: true });
      log(`screenshot of ${label}'s page: ${file}`);
    } catch (e) {
      log(`no screenshot of ${label}'s page: ${e}`);
    }
  }
  await browser.close();
  process.exit(1);
}
