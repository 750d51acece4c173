// Deliberate's service worker: once the page has been opened, it opens again with no network.
//
// tools/precache.sh (a Trunk post_build hook) writes the two lines marked below for every
// release build: the build's version (a hash of its files' names and contents, index.html
// aside) and the files to keep, hashed names included. A new build is thus a new sw.js,
// which the browser installs next to the running one; the page offers to reload into it.
//
// - A visit of the app's address (the directory's URL, no query): the kept page, at once,
//   without the network. It is returning.html (tools/returning_page.mjs), index.html without
//   the static shell: the app's files are on the device, so the app is the first paint. A new
//   deploy is found as the browser looks for a new sw.js (at every visit) and offered as a
//   reload (sw-register.js). Where the browser allows, the cache answers without waking this
//   worker (`bypass`).
// - Other page loads (a query, another page): the network first, the kept page when the
//   network fails. Where the browser allows, the network request starts at once, raced
//   against this worker's handler (`bypass`).
// - The build's files: from the cache first (their names change with their content). Where
//   the browser allows, the cache answers them without waking this worker (`bypass`).
// - Anything else (other origins such as an LLM endpoint, non-GET requests): not touched, and
//   where the browser allows, not even seen (`bypass`).
'use strict';

const VERSION = 'unbuilt'; // precache: version
const FILES = []; // precache: files

const PREFIX = 'deliberate-';
const CACHE = PREFIX + VERSION;
// The page is kept under the directory's URL (every static host serves it there); what is
// kept there is returning.html, the page without its static shell.
const PAGE = new URL('./', self.location.href).href;
const RETURNING = 'returning.html';
// The reader build's page (see src/store/snapshot.rs), kept under its file name.
const READER = new URL('reader/', self.location.href).href;
const READER_PAGE = new URL('reader/index.html', self.location.href).href;
const KEPT = new Set(FILES.map((f) => new URL(f, self.location.href).href));

self.addEventListener('install', (event) => {
  // Revalidate with the server instead of trusting the HTTP cache: the page and the
  // unhashed files (manifest, icons) may have changed under the same name.
  const fresh = (f) => new Request(f, { cache: 'no-cache' });
  const keep = (files) =>
    caches.open(CACHE).then((cache) =>
      Promise.all([
        cache.addAll(files.filter((f) => f !== './').map(fresh)),
        fetch(fresh(RETURNING)).then((page) => {
          if (!page.ok) throw new Error(`${RETURNING}: ${page.status}`);
          return cache.put(PAGE, page);
        }),
      ]),
    );
  // The reader build opens conversations that an earlier version saved. On the first
  // install no earlier version ran here, so it would be a second download of the size of
  // the app for nothing: it is kept from the first update on (and fetched if ever asked).
  const kept = caches
    .keys()
    .then((names) => names.some((n) => n.startsWith(PREFIX) && n !== CACHE))
    .then((updating) => keep(updating ? FILES : FILES.filter((f) => !new URL(f, self.location.href).href.startsWith(READER))));
  event.waitUntil(Promise.all([kept, bypass(event)]));
  // No skipWaiting here: a new version waits until the user chooses to reload.
});

// Requests this worker never answers go straight to the network without waking it (the
// Static Routing API, where the browser has it): otherwise every LLM call is first handed
// to the worker's fetch handler, and after the worker has idled, waits for it to start. Each
// rule is tried on its own, so a browser that lacks one kind of condition keeps the others;
// with none, the fetch handler below still lets these requests pass untouched.
// A visit of the app's address is answered from this version's cache. Any other page load
// goes to the network at once, raced against the fetch handler: online the network's answer
// is taken without the hop through this worker, which may first have to start; offline the
// handler's kept page is. The build's files are read from this version's
// cache by the browser itself, one rule per file (a file missing from the cache goes to the
// network, as the handler would send it): a returning visit's wasm and glue then wait for
// no worker, running or stopped.
function bypass(event) {
  if (typeof event.addRoutes !== 'function') return Promise.resolve();
  // The files' own names are plain (tools/precache.sh), but the directory the app is served
  // from may hold characters a URL pattern reads as syntax.
  const literal = (path) => path.replace(/[\\:*?+(){}]/g, '\\$&');
  const rules = [
    { condition: { requestMethod: 'POST' }, source: 'network' },
    { condition: { not: { urlPattern: new URLPattern({ baseURL: self.location.origin, pathname: '*' }) } }, source: 'network' },
    {
      condition: {
        requestMode: 'navigate',
        urlPattern: new URLPattern({ baseURL: self.location.origin, pathname: literal(new URL(PAGE).pathname), search: '' }),
      },
      source: { cacheName: CACHE },
    },
    { condition: { requestMode: 'navigate' }, source: 'race-network-and-fetch-handler' },
    ...[...KEPT]
      .filter((url) => url !== PAGE)
      .map((url) => ({
        condition: { urlPattern: new URLPattern({ baseURL: self.location.origin, pathname: literal(new URL(url).pathname) }) },
        source: { cacheName: CACHE },
      })),
  ];
  return Promise.all(
    rules.map((rule) => {
      try {
        return Promise.resolve(event.addRoutes(rule)).catch(() => {});
      } catch (_) {
        return Promise.resolve();
      }
    }),
  );
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (request.url === PAGE) {
      event.respondWith(
        caches
          .open(CACHE)
          .then((cache) => cache.match(PAGE))
          .then((kept) => kept || fetch(request)),
      );
      return;
    }
    // The fresh page is not stored: the kept page must stay the one that names the kept files.
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .open(CACHE)
          .then((cache) => cache.match(request.url.startsWith(READER) ? READER_PAGE : PAGE))
          .then((kept) => kept || Response.error()),
      ),
    );
    return;
  }
  if (!KEPT.has(request.url)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request))
      .then((hit) => hit || fetch(request)),
  );
});
