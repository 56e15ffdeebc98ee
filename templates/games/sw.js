// Scorekeeper's service worker (issue 9: never lose a tap). Rendered by
// games.views_app.service_worker; served as /sw.js so that its scope is the whole site.
//
// What it keeps:
// - the app shell: every stylesheet, script and icon (the list below comes from the
//   static files storage, so it names exactly the files this deploy serves);
// - the score sheets this phone opened (/s/<token>/ and /v/<token>/), network first:
//   each time a sheet is loaded with a connection its copy here is replaced, and without
//   one the copy is shown (the deals entered meanwhile wait on the phone: offline.js);
// - the page shown offline for anything else, in the language of the link asked for, or
//   for a link without one ("/", the installed app's start URL) in the language of the
//   pages last read here (STATE_CACHE), else the first of the phone's it has;
// - any other answer the server marks "Cache-Control: public" (shared by everybody, such
//   as the card pickers a form loads when they are shown), for use without a connection.
// What it never keeps: answers to POSTs, the read-only sheet's poll, answers that are not
// a plain 200 page, and any page this phone did not open itself. (offline.js keeps the
// whole page a deal sent from its outbox is answered with as the sheet's copy itself.)
// A sheet taken off the home page's list (recent.js) is deleted from PAGES_CACHE there.
"use strict";

const VERSION = "{{ version }}";
const SHELL = {{ shell|safe }};
// The offline page in each language, by language code; the first is the default.
const OFFLINE_URLS = {{ offline_urls|safe }};
const SHELL_CACHE = "scorekeeper-shell-" + VERSION;
const PAGES_CACHE = "scorekeeper-pages";
const PARTS_CACHE = "scorekeeper-parts-" + VERSION;
const PAGES_KEPT = 40;
// The edit link's and the read-only link's page; not their parts (/live, /chart, …).
const SHEET_PAGE = /^\/(?:[a-z]{2}\/)?[sv]\/[A-Za-z0-9_-]+\/$/;

// The shell and the offline pages are fetched without cookies: they are the same for
// everybody, and a page's answer sends the CSRF cookie back as the request had it.
// Fetched with cookies, an offline page asked for just before the person logged in
// could answer just after, put the old CSRF cookie back, and the next form they sent
// was refused (403). Without cookies the browser keeps none of the answer's.
self.addEventListener("install", (event) => {
  const anonymous = (url) => new Request(url, { credentials: "omit" });
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([...SHELL, ...Object.values(OFFLINE_URLS)].map(anonymous)))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter(
              (name) =>
                (name.startsWith("scorekeeper-shell-") && name !== SHELL_CACHE) ||
                (name.startsWith("scorekeeper-parts-") && name !== PARTS_CACHE)
            )
            .map((name) => caches.delete(name))
        )
      )
      .then(() => self.clients.claim())
  );
});

function pageKey(url) {
  // One copy per sheet, whatever query or fragment the link carried.
  return new URL(url.pathname, url.origin).href;
}

// Which fetch of each sheet's page was started last: an older fetch that answers late
// must not replace the copy a newer one kept (the sheet as it was before a change).
let fetches = 0;
const newest = new Map();

async function keepPage(key, response, started) {
  if ((newest.get(key) || 0) > started) return;
  newest.set(key, started);
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(key, response);
  const keys = await cache.keys();
  // The oldest copies go first (put() moves a refreshed copy to the end).
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map((k) => cache.delete(k)));
}

async function forgetPage(key) {
  const cache = await caches.open(PAGES_CACHE);
  await cache.delete(key);
}

// The language of the pages last read on this phone (each page says it: offline.js),
// kept for a link without one ("/", the installed app's start URL).
const STATE_CACHE = "scorekeeper-state";
const LANGUAGE_KEY = "/sw-state/language";
let language = null;

function offered(code) {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(OFFLINE_URLS, code);
}

function rememberLanguage(event, code) {
  if (!offered(code) || code === language) return;
  language = code;
  event.waitUntil(
    caches
      .open(STATE_CACHE)
      .then((cache) => cache.put(LANGUAGE_KEY, new Response(code)))
      .catch(() => undefined)
  );
}

async function readersLanguage() {
  if (language) return language;
  try {
    const kept = await caches.match(LANGUAGE_KEY, { cacheName: STATE_CACHE });
    if (kept) language = await kept.text();
  } catch (error) {
    // Nothing kept: the phone's languages below.
  }
  if (offered(language)) return language;
  // As the server chooses for a first visit: the first of the phone's languages it has.
  for (const each of self.navigator.languages || []) {
    const code = each.toLowerCase().split("-")[0];
    if (offered(code)) return code;
  }
  return null;
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.language === "string") rememberLanguage(event, data.language.toLowerCase().split("-")[0]);
});

async function offlinePage(url) {
  // In the language of the page asked for (its prefix: /de/…), else in the reader's.
  const prefix = new URL(url).pathname.split("/")[1];
  const code = offered(prefix) ? prefix : await readersLanguage();
  const cached = await caches.match(offered(code) ? OFFLINE_URLS[code] : Object.values(OFFLINE_URLS)[0]);
  return cached || Response.error();
}

async function sheetPage(event, url) {
  const key = pageKey(url);
  const started = ++fetches;
  try {
    const response = await fetch(event.request);
    if (response.status === 200 && response.type === "basic" && !response.redirected) {
      event.waitUntil(keepPage(key, response.clone(), started));
    } else if (response.status === 404 || response.status === 410) {
      // A link that no longer opens the sheet (new links made, or the sheet deleted).
      event.waitUntil(forgetPage(key));
    }
    return response;
  } catch (error) {
    // offline.js asks with cache "no-store" when it needs the sheet as it is now.
    const cached =
      event.request.cache === "no-store" ? null : await caches.match(key, { cacheName: PAGES_CACHE });
    if (cached) return cached;
    if (event.request.mode === "navigate") return offlinePage(event.request.url);
    throw error;
  }
}

async function shellFile(event) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(event.request, { ignoreVary: true });
  const fresh = fetch(event.request).then((response) => {
    if (response.status === 200 && response.type === "basic") {
      cache.put(event.request, response.clone());
    }
    return response;
  });
  if (cached) {
    // Hashed names never change content; an unhashed one (development) catches up
    // on the next load.
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }
  return fresh;
}

async function publicPart(event) {
  try {
    const response = await fetch(event.request);
    const control = response.headers.get("Cache-Control") || "";
    if (response.status === 200 && response.type === "basic" && /\bpublic\b/.test(control)) {
      const copy = response.clone();
      event.waitUntil(caches.open(PARTS_CACHE).then((cache) => cache.put(event.request, copy)));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(event.request, { cacheName: PARTS_CACHE, ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

async function otherPage(event) {
  try {
    return await fetch(event.request);
  } catch (error) {
    return offlinePage(event.request.url);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // POSTs go to the network, never to a cache.
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") rememberLanguage(event, url.pathname.split("/")[1]);
  if (SHEET_PAGE.test(url.pathname) && !request.headers.get("HX-Request")) {
    event.respondWith(sheetPage(event, url));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(shellFile(event));
  } else if (request.mode === "navigate") {
    event.respondWith(otherPage(event));
  } else {
    event.respondWith(publicPart(event));
  }
});
