// The sheets opened on this phone (issue 9). Loaded on every page (templates/base.html).
//
// A sheet's page (its board's #this-sheet) is remembered in this phone's storage: its
// link (the edit link wins over the read-only one), game, players, headline and when it
// was last opened. The home page and the offline page list them, newest first
// (#recent-sheets, templates/games/_recent_sheets.html), with a way to continue each
// and to take it off the list. Nothing of it leaves the phone.
(function () {
  "use strict";

  const SHEETS = "scorekeeper:sheets";
  const OUTBOX = "scorekeeper:outbox:"; // offline.js: deals waiting to be sent, per sheet
  const PAGES_CACHE = "scorekeeper-pages"; // the service worker's copies of sheets
  const KEPT = 30;

  function load() {
    try {
      const list = JSON.parse(window.localStorage.getItem(SHEETS) || "[]");
      return Array.isArray(list) ? list.filter((sheet) => sheet && sheet.id && sheet.url) : [];
    } catch (error) {
      return [];
    }
  }

  function save(list) {
    try {
      window.localStorage.setItem(SHEETS, JSON.stringify(list.slice(0, KEPT)));
    } catch (error) {
      // No storage (or none left): the list is simply not kept.
    }
  }

  // offline.js keeps a sheet's deals under its link without the language (/s/…/), and
  // under the page's link (/en/s/…/) before it moved them.
  function outboxKeys(url) {
    const path = String(url).replace(/^\/[a-z]{2}(?:-[a-z0-9]+)?(?=\/[sv]\/)/i, "");
    return path === url ? [OUTBOX + url] : [OUTBOX + path, OUTBOX + url];
  }

  function waiting(url) {
    return outboxKeys(url).reduce(function (count, key) {
      try {
        const items = JSON.parse(window.localStorage.getItem(key) || "[]");
        return count + (Array.isArray(items) ? items.length : 0);
      } catch (error) {
        return count;
      }
    }, 0);
  }

  function remember() {
    const here = document.getElementById("this-sheet");
    if (!here) return;
    const data = here.dataset;
    const list = load();
    const before = list.find((sheet) => sheet.id === data.sheet);
    const sheet = {
      id: data.sheet,
      url: data.url,
      kind: data.kind,
      game: data.game,
      players: data.players,
      headline: data.headline,
      finished: data.finished === "true",
      at: Date.now(),
    };
    if (before && before.kind === "edit" && sheet.kind === "view") {
      // The read-only link of a sheet this phone can edit: keep the edit link.
      sheet.url = before.url;
      sheet.kind = "edit";
    }
    save([sheet, ...list.filter((each) => each.id !== sheet.id)]);
  }

  function forget(sheet) {
    save(load().filter((each) => each.id !== sheet.id));
    try {
      outboxKeys(sheet.url).forEach((key) => window.localStorage.removeItem(key));
    } catch (error) {
      // Nothing was kept.
    }
    if (window.caches) {
      const copy = new URL(sheet.url, window.location.origin).href;
      window.caches.open(PAGES_CACHE).then((cache) => cache.delete(copy)).catch(() => undefined);
    }
  }

  // Dates as the page's language writes them (the reader's own variant of it, if the
  // browser has one: en-GB, de-AT).
  function locales() {
    const lang = (document.documentElement.lang || "").toLowerCase();
    if (!lang) return [];
    const own = (navigator.languages || []).find((each) => each.toLowerCase().split("-")[0] === lang.split("-")[0]);
    return [own || lang];
  }

  function when(time) {
    return new Date(time).toLocaleString(locales(), { dateStyle: "medium", timeStyle: "short" });
  }

  function render() {
    const section = document.getElementById("recent-sheets");
    if (!section) return;
    const list = load();
    const data = section.dataset;
    const items = section.querySelector(".recent-list");
    const template = section.querySelector("template.recent-item");
    items.replaceChildren();
    const limit = Number(data.limit) || 0;
    const shown = limit && !section.classList.contains("is-all") ? list.slice(0, limit) : list;
    const more = section.querySelector(".recent-more");
    more.hidden = shown.length === list.length;
    const button = more.querySelector("button");
    button.textContent = button.dataset.more.replace("{count}", String(list.length));
    shown.forEach(function (sheet) {
      const item = template.content.firstElementChild.cloneNode(true);
      item.dataset.sheet = sheet.id;
      item.querySelector(".recent-game").textContent = sheet.game || "";
      item.querySelector(".recent-players").textContent = sheet.players || "";
      item.querySelector(".recent-headline").textContent = sheet.headline || "";
      item.querySelector(".recent-headline").hidden = !sheet.headline;
      item.querySelector(".recent-meta").textContent = data.opened.replace("{when}", when(sheet.at));
      item.querySelector(".recent-view").hidden = sheet.kind !== "view";
      item.querySelector(".recent-done").hidden = !sheet.finished;
      const count = sheet.kind === "edit" ? waiting(sheet.url) : 0;
      const note = item.querySelector(".recent-waiting");
      note.hidden = !count;
      note.textContent = data.waiting.replace("{count}", String(count));
      const link = item.querySelector(".recent-continue");
      link.href = sheet.url;
      item.querySelector(".recent-which").textContent = ": " + [sheet.game, sheet.players].join(", ");
      items.appendChild(item);
    });
    section.hidden = !list.length;
  }

  document.addEventListener("click", function (event) {
    const more = event.target.closest && event.target.closest("#recent-sheets .recent-more button");
    if (more) {
      document.getElementById("recent-sheets").classList.add("is-all");
      render();
      return undefined;
    }
    const button = event.target.closest && event.target.closest("#recent-sheets .recent-remove");
    if (!button) return;
    const item = button.closest(".recent-sheet");
    const sheet = load().find((each) => each.id === item.dataset.sheet);
    if (!sheet) return render();
    const section = document.getElementById("recent-sheets");
    if (sheet.kind === "edit" && waiting(sheet.url) && !window.confirm(section.dataset.confirmRemove)) {
      return undefined;
    }
    forget(sheet);
    render();
    // Keep the focus in the list (or on its heading once it is empty).
    const next = section.querySelector(".recent-continue");
    if (next) next.focus();
    return undefined;
  });

  // The read-only sheet updates by itself: its headline follows.
  document.addEventListener("htmx:afterSettle", remember);
  // Another tab opened a sheet or sent its deals: the list follows.
  window.addEventListener("storage", render);
  // Back to the home page from a sheet (a page restored from the back-forward cache).
  window.addEventListener("pageshow", render);

  render();
  // Remembered in a task of its own once the page is read (opening the phone's storage
  // takes time on a slow phone; the home page's list above needs it at once).
  // Leaving the page before that task ran (a quick tap on the next link) still
  // remembers it: pagehide comes before the next page starts.
  let remembered = false;
  const once = () => {
    if (remembered) return;
    remembered = true;
    remember();
  };
  const later = () => window.setTimeout(once, 0);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later);
  else later();
  window.addEventListener("pagehide", once);
})();
