// Never lose a tap (issue 9). Loaded on every page (templates/base.html).
//
// - Registers the service worker once the page has loaded (/sw.js: the app shell and
//   the sheets this phone opened, so an open sheet keeps working without a connection).
// - The deal entry form (form.entry-form) without a connection: the deal is kept on this
//   phone (localStorage, per sheet whatever the page's language), the form is cleared
//   for the next deal, and the board's #outbox lists what waits. When the connection is
//   back (and on every page load) the deals are sent in order, each with its own
//   idempotency key and, in place of the form's version, the number it was entered as:
//   the server stores it only as that deal (if another phone saved a deal meanwhile it
//   answers 412, and the deal is held until the player saves it anyway or discards it).
//   Each answer is the whole sheet, kept as the service worker's copy; then the page is
//   loaded afresh. A deal the server refuses stays listed with the server's message
//   until it is sent again or discarded: nothing is dropped.
// - The read-only sheet's poll (.live) says when it is not live, and since when.
// - A new-sheet form restored by Back is loaded afresh (its page then points at the
//   sheet just started, so that nobody starts a second one by mistake).
// Every word a person reads comes from the page (data- attributes, translated there).
(function () {
  "use strict";

  const script = document.currentScript;
  const OUTBOX = "scorekeeper:outbox:";
  const LIVE = "scorekeeper:live:";
  const RETRY_MS = 15000;

  // -- the service worker ---------------------------------------------------------------

  // Registered once the page has loaded: installing, the worker fetches every stylesheet,
  // script and icon of the app, which must not hold up this page's own first load.
  const workerUrl = script && script.dataset.serviceWorker;
  function registerWorker() {
    navigator.serviceWorker.register(workerUrl, { scope: "/" }).catch(function () {
      // No worker (a private window may refuse one): the site works as before.
    });
  }
  if (workerUrl && "serviceWorker" in navigator && window.isSecureContext) {
    if (document.readyState === "complete") registerWorker();
    else window.addEventListener("load", registerWorker);
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("form[data-fresh-on-back]")) {
      window.location.reload();
    }
  });

  // -- storage ----------------------------------------------------------------------------

  // The deals waiting for a sheet are kept under its link without the language (/s/…/):
  // switching the page to Deutsch still lists and sends them. Kept before under the
  // page's own link (/en/s/…/), they are moved over when first read.
  const LANGUAGE_PREFIX = /^\/[a-z]{2}(?:-[a-z0-9]+)?(?=\/[sv]\/)/i;

  function storeKey(url) {
    return OUTBOX + String(url).replace(LANGUAGE_PREFIX, "");
  }

  function read(name) {
    const items = JSON.parse(window.localStorage.getItem(name) || "[]");
    return Array.isArray(items) ? items.filter((item) => item && item.key) : [];
  }

  // The keys of the same sheet's deals kept under a language's link.
  function olderKeys(key) {
    const path = key.slice(OUTBOX.length);
    const found = [];
    for (let index = 0; index < window.localStorage.length; index += 1) {
      const name = window.localStorage.key(index);
      if (name && name !== key && name.startsWith(OUTBOX) && name.slice(OUTBOX.length).replace(LANGUAGE_PREFIX, "") === path) {
        found.push(name);
      }
    }
    return found;
  }

  function load(url) {
    try {
      const key = storeKey(url);
      let items = read(key);
      const older = olderKeys(key);
      if (older.length) {
        const moved = [];
        older.forEach((name) => read(name).forEach((item) => moved.push(item)));
        const fresh = moved.filter((item, index) => !items.some((each) => each.key === item.key) && moved.findIndex((each) => each.key === item.key) === index);
        // In the order they were kept, where lists of two links meet.
        const mixed = items.length > 0 || older.length > 1;
        items = items.concat(fresh);
        if (mixed) items.sort((a, b) => (a.at || 0) - (b.at || 0));
        // Written where they belong before the old lists go: never in neither place.
        window.localStorage.setItem(key, JSON.stringify(items));
        older.forEach((name) => window.localStorage.removeItem(name));
      }
      return items;
    } catch (error) {
      return [];
    }
  }

  function save(url, items) {
    try {
      if (items.length) window.localStorage.setItem(storeKey(url), JSON.stringify(items));
      else window.localStorage.removeItem(storeKey(url));
      return true;
    } catch (error) {
      return false;
    }
  }

  // ``shift``: the deals kept after this one were entered as the ones following it; when
  // it goes as another number than it was entered as (sent anyway, corrected in the form
  // as the sheet's next) or not at all (discarded), so do they.
  function update(url, key, change, shift) {
    const items = load(url);
    const item = items.find((each) => each.key === key);
    if (!item) return;
    renumberAfter(items, items.indexOf(item), shift);
    if (change === null) items.splice(items.indexOf(item), 1);
    else Object.assign(item, change);
    save(url, items);
  }

  function renumberAfter(items, index, shift) {
    if (!shift) return;
    items.slice(index + 1).forEach(function (item) {
      if (item.number) item.number += shift;
    });
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID().replace(/-/g, "");
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- the page ---------------------------------------------------------------------------

  function outbox() {
    return document.getElementById("outbox");
  }

  function sheetUrl() {
    const box = outbox();
    return box ? box.dataset.sheetUrl : null;
  }

  function entryForm() {
    return document.querySelector("form.entry-form");
  }

  function isEntryForm(element) {
    return !!(element && element.matches && element.matches("form.entry-form"));
  }

  function words(element) {
    // innerText keeps the space between "Grand" and its "24" where they are two boxes.
    const text = element ? element.innerText || element.textContent : "";
    return text.replace(/\s+/g, " ").trim();
  }

  function shown(element) {
    return !!(element && element.getClientRects().length);
  }

  // Text and the hidden attribute written only when they change: the same words written
  // again still make the phone lay the page out again (render() runs at every load).
  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function setHidden(element, hidden) {
    if (element.hidden !== hidden) element.hidden = hidden;
  }

  function labelOf(input) {
    const label = input.closest("label");
    if (!label) return "";
    const part = label.querySelector(".field-label");
    if (part) return words(part);
    const span = label.querySelector("span");
    return words(span || label);
  }

  function fieldName(input) {
    if (input.id) {
      const label = document.querySelector('label[for="' + input.id + '"]');
      if (label) return words(label);
    }
    const part = input.closest("label") && input.closest("label").querySelector(".field-label");
    if (part) return words(part);
    // A number without a label of its own in view names itself for a screen reader
    // ("Ali’s card points", in the Ramsch's grid).
    const own = input.closest("label") && input.closest("label").querySelector(".visually-hidden");
    if (own && words(own)) return words(own);
    const fieldset = input.closest("fieldset");
    return fieldset ? words(fieldset.querySelector("legend")) : "";
  }

  // A short line a person recognises the deal by: what was chosen and typed.
  function summarize(form) {
    const parts = [];
    form.querySelectorAll("input, select").forEach(function (input) {
      if (!input.name || input.type === "hidden" || input.disabled) return;
      if (input.closest(".card-picker")) return;
      // A switch of what shows says something only when it is not the form's own default
      // ("Everyone passed" does, "One tap" does not).
      if (input.dataset.show !== undefined && input.defaultChecked) return;
      if (!shown(input.closest("label") || input)) return;
      if (input.type === "radio" || input.type === "checkbox") {
        // What was chosen; "none" (nothing announced, say) says nothing.
        if (input.checked && input.value !== "none") parts.push(labelOf(input));
      } else if (input.tagName === "SELECT") {
        if (input.value !== "") {
          const option = input.options[input.selectedIndex];
          parts.push((fieldName(input) + " " + words(option)).trim());
        }
      } else if (input.value.trim() !== "") {
        parts.push((fieldName(input) + " " + input.value.trim()).trim());
      }
    });
    form.querySelectorAll(".card-picker").forEach(function (picker) {
      const held = picker.querySelectorAll("input:checked").length;
      if (!held || !shown(picker)) return;
      const sum = picker.querySelector("[data-sum]");
      const name = picker.getAttribute("aria-label") || words(picker.closest("details") && picker.closest("details").querySelector("summary"));
      parts.push((name + " " + (sum ? words(sum) : held)).trim());
    });
    const line = parts.filter(Boolean).join(" · ");
    return line.length > 160 ? line.slice(0, 159) + "…" : line;
  }

  // What the form sends, less what a kept deal must not carry: its page's CSRF token
  // (a fresh one is used), version and key (each kept deal has its own key).
  function body(form) {
    const params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== "string") return;
      if (name === "csrfmiddlewaretoken" || name === "version" || name === "idempotency_key") return;
      params.append(name, value);
    });
    return params.toString();
  }

  // Whether someone is entering the next deal: a tap or a key in the entry form since the
  // page was loaded or the last deal was kept (what scripts set, such as a restored
  // half-entered deal, does not count).
  let typing = false;

  function touched(event) {
    if (event.isTrusted && event.target.closest && event.target.closest("form.entry-form")) typing = true;
  }

  document.addEventListener("input", touched, true);
  document.addEventListener("change", touched, true);
  // A half-entered deal brought back after a reload (entry.js, with its note) is a deal
  // being entered too: the page is not loaded afresh under it once the deals waiting
  // here are sent. (A refused deal put in the form to be corrected has no such note.)
  document.addEventListener("entry:restored", function (event) {
    if (isEntryForm(event.target) && event.target.querySelector(".restored")) typing = true;
  });

  function trailingNumber(text) {
    const match = /(\d+)\D*$/.exec(text || "");
    return match ? Number(match[1]) : null;
  }

  function originalText(element) {
    if (element.dataset.offlineText === undefined) element.dataset.offlineText = element.textContent;
    return element.dataset.offlineText;
  }

  // The entry form names the deal after the ones waiting here, and hides who deals and
  // the notes: the sheet works those out once it has the waiting deals.
  let sentWithoutReload = 0;

  // ``count``: how many deals come before the one in the form, beyond those the page was
  // drawn after. Past the series' last deal there is no next one: the form gives way to a
  // line saying so (it shows again if a waiting deal is discarded).
  function shiftEntry(count) {
    const form = entryForm();
    const heading = document.getElementById("entry-heading");
    const button = form && form.querySelector("button[type=submit]");
    [heading, button].forEach(function (element) {
      if (!element || element.children.length) return;
      const text = originalText(element);
      const shifted = text.replace(/(\d+)(\D*)$/, (all, number, rest) => String(Number(number) + count) + rest);
      setText(element, count ? shifted : text);
    });
    const section = form && form.closest(".entry");
    if (section) section.classList.toggle("is-behind", count > 0);
    const full = seriesFull(count);
    if (section) section.classList.toggle("is-full", full);
    const note = section && section.querySelector(".entry-full");
    if (note) setHidden(note, !full);
  }

  // Whether the deal the form would be is past the series' last deal.
  function seriesFull(count) {
    const form = entryForm();
    const heading = document.getElementById("entry-heading");
    const last = form ? Number(form.dataset.lastDeal) : 0;
    const base = heading ? trailingNumber(originalText(heading)) : null;
    return !!last && base !== null && base + count > last;
  }

  function nextNumber(items) {
    const heading = document.getElementById("entry-heading");
    const base = heading ? trailingNumber(originalText(heading)) : null;
    return base === null ? null : base + sentWithoutReload + items.length;
  }

  // -- the outbox -------------------------------------------------------------------------

  let sending = false;
  let problem = "";

  function render() {
    const box = outbox();
    if (!box) return;
    const url = sheetUrl();
    const items = load(url);
    const offline = !navigator.onLine;
    const data = box.dataset;
    setHidden(box, !items.length && !offline && !problem);
    box.classList.toggle("is-offline", offline);
    box.classList.toggle("has-refused", items.some((item) => item.error));
    const heading = box.querySelector(".outbox-title");
    const title = items.length ? data.waiting.replace("{count}", String(items.length)) : offline ? data.offlineHeading : "";
    setText(heading, title);
    setHidden(heading, !heading.textContent);
    let status = items.length ? data.queued : data.offline;
    if (sending) status = data.sending;
    else if (items.length && items[0].error) status = items.length > 1 ? data.held : "";
    else if (problem) status = problem;
    setText(box.querySelector(".outbox-status"), status);
    const list = box.querySelector(".outbox-list");
    const template = box.querySelector("template.outbox-item");
    if (list.firstChild) list.replaceChildren();
    items.forEach(function (item, index) {
      const row = template.content.firstElementChild.cloneNode(true);
      row.dataset.key = item.key;
      const number = item.number || index + 1;
      row.querySelector(".outbox-number").textContent = data.dealLabel.replace("{number}", String(number));
      row.querySelector(".outbox-summary").textContent = item.summary || "";
      if (item.error) {
        row.classList.add("is-refused");
        const message = row.querySelector(".outbox-problem");
        message.textContent = data.refused + " " + item.error;
        message.hidden = false;
        row.querySelector(".outbox-actions").hidden = false;
        // Held because the sheet went on without it (another phone saved that deal):
        // sent as the next deal only if the player says so.
        row.querySelector(".outbox-anyway").hidden = !item.stale;
        row.querySelector(".outbox-retry").hidden = !!item.stale;
        row.querySelector(".outbox-mend").hidden = !!item.mending || !entryForm();
        row.querySelector(".outbox-mending").hidden = !item.mending;
      }
      list.appendChild(row);
    });
    setHidden(list, !items.length);
    setHidden(box.querySelector(".outbox-send"), !items.length || offline || sending || !!items[0].error);
    // A refused deal opens the list (once: the player may close it again), unless the
    // form holds it already, with what is wrong.
    const refused = items.find((item) => item.error && !item.mending);
    const details = box.querySelector(".outbox-body");
    if (details && refused && box.dataset.opened !== refused.key + refused.error) {
      details.open = true;
      box.dataset.opened = refused.key + refused.error;
    }
    const mending = items.find((item) => item.mending);
    const before = mending ? items.indexOf(mending) + sentWithoutReload : items.length + sentWithoutReload;
    setHidden(box.querySelector(".outbox-next"), !before);
    shiftEntry(before);
  }

  function clearForm(form) {
    form.reset();
    const key = form.querySelector("input[name=idempotency_key]");
    if (key) key.value = newKey();
    // (The card pickers count again on the form's "reset": cardpicker.js.)
    const preview = document.getElementById("preview");
    if (preview) preview.replaceChildren();
    // "Deal 8 saved" was the last deal sent: the one kept now is listed in the outbox.
    const status = document.getElementById("entry-status");
    if (status && status.closest("form")) status.replaceChildren();
    // entry.js keeps a half-entered deal over a reload (sessionStorage, by the form's
    // data-entry-key); this deal is kept here now, and a reload must not bring it back
    // into the form, where it could be saved a second time.
    try {
      if (form.dataset.entryKey) window.sessionStorage.removeItem("scorekeeper:entry:" + form.dataset.entryKey);
    } catch (error) {
      // Nothing was kept there.
    }
    form.dispatchEvent(new CustomEvent("scorekeeper:kept", { bubbles: true }));
  }

  function keep(form, key) {
    const url = sheetUrl();
    if (!url) return false;
    const items = load(url);
    if (items.some((item) => item.key === key)) key = newKey();
    const mending = items.find((item) => item.mending);
    if (mending) {
      // Corrected: sent in its place, under a key of its own (the refused one's answer
      // is remembered with the old key).
      // It is the deal the form names now (a deal held because the sheet went on
      // without it is entered again as the sheet's next one).
      const number = nextNumber(items.slice(0, items.indexOf(mending)));
      if (number && mending.number) renumberAfter(items, items.indexOf(mending), number - mending.number);
      Object.assign(mending, { key: key, body: body(form), summary: summarize(form), number: number, at: Date.now() });
      delete mending.error;
      delete mending.mending;
      delete mending.stale;
      delete mending.anyway;
      form.dataset.mending = "";
    } else {
      items.push({
        key: key,
        body: body(form),
        summary: summarize(form),
        number: nextNumber(items),
        at: Date.now(),
      });
    }
    if (!save(url, items)) {
      // Kept nowhere: the form stays as it is, and the page says so.
      problem = outbox().dataset.noRoom;
      render();
      return false;
    }
    problem = "";
    clearForm(form);
    typing = false;
    render();
    const box = outbox();
    if (box && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
    return true;
  }

  // Without a connection, or while deals wait (a new one must not overtake them), the
  // deal is kept here instead of sent.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = event.detail.elt;
    if (!isEntryForm(form) || !sheetUrl()) return;
    if (navigator.onLine && !load(sheetUrl()).length) return;
    event.preventDefault();
    const items = load(sheetUrl());
    if (!items.some((item) => item.mending) && seriesFull(items.length + sentWithoutReload)) return;
    // Kept here, it is judged by the server only later: what the form asks for must all
    // be there now (a deal refused then has to be entered again from memory).
    const missing = incomplete(form);
    if (missing.length) {
      showProblems(form, missing.map((part) => part.dataset.required));
      const first = missing[0].querySelector("label, input") || missing[0];
      if (first.scrollIntoView) first.scrollIntoView({ block: "nearest" });
      return;
    }
    if (keep(form, newKey())) flushSoon();
  });

  // -- what the phone can check itself ------------------------------------------------------

  // The parts of the form marked data-required (a message) that show and have no answer:
  // no choice among their radios (an "other" choice without its value), or an empty
  // number among those that show.
  function incomplete(form) {
    return Array.from(form.querySelectorAll("[data-required]")).filter(function (part) {
      if (!shown(part)) return false;
      const controls = (part.matches("input, select") ? [part] : Array.from(part.querySelectorAll("input, select"))).filter(
        (control) => !control.disabled && control.type !== "hidden",
      );
      const typed = controls.filter((control) => control.type !== "radio" && control.type !== "checkbox");
      if (typed.length) {
        return typed.some((control) => shown(control) && getComputedStyle(control).visibility !== "hidden" && control.value.trim() === "");
      }
      const radios = controls.filter((control) => control.type === "radio");
      if (!radios.length) return false;
      const chosen = radios.find((radio) => radio.checked);
      if (!chosen) return true;
      const other = chosen.value === "other" && form.elements.namedItem(chosen.name + "_other");
      return !!other && !other.value;
    });
  }

  // Problems in the Save bar, the way the server's preview shows them (sheet.html#preview).
  function showProblems(form, messages) {
    const preview = document.getElementById("preview");
    if (!preview || !messages.length) return;
    const details = document.createElement("details");
    details.className = "preview-errors" + (messages.length > 1 ? " has-more" : "");
    const summary = document.createElement("summary");
    const first = document.createElement("span");
    first.className = "preview-problem";
    const strong = document.createElement("strong");
    strong.textContent = form.dataset.notYet || "";
    first.append(strong, " " + messages[0]);
    const all = document.createElement("span");
    all.className = "preview-all";
    all.textContent = form.dataset.readAll || "";
    summary.append(first, " ", all);
    const list = document.createElement("ul");
    messages.forEach(function (message) {
      const item = document.createElement("li");
      item.textContent = message;
      list.appendChild(item);
    });
    details.append(summary, list);
    preview.replaceChildren(details);
    first.closest("details").classList.toggle("is-cut", first.scrollHeight > first.clientHeight + 1);
  }

  // Without a connection the preview cannot ask the server: the phone says at least what
  // is still missing.
  document.addEventListener("htmx:sendError", function (event) {
    const elt = event.detail.elt;
    const form = elt && elt.closest && elt.closest("form.entry-form");
    if (!form || isEntryForm(elt)) return;
    const missing = incomplete(form);
    if (missing.length) showProblems(form, missing.map((part) => part.dataset.required));
    else if (!form.dataset.mending && document.getElementById("preview")) document.getElementById("preview").replaceChildren();
  });

  // -- a refused deal, corrected in the form --------------------------------------------------

  function mend(key) {
    const url = sheetUrl();
    const form = entryForm();
    if (!url || !form) return;
    const items = load(url);
    const item = items.find((each) => each.key === key);
    if (!item) return;
    items.forEach((each) => delete each.mending);
    item.mending = true;
    save(url, items);
    typing = false;
    form.dispatchEvent(new CustomEvent("scorekeeper:mend", { bubbles: true, detail: { body: item.body } }));
    // The form says what is wrong now: the list goes back to its one line.
    const details = outbox() && outbox().querySelector(".outbox-body");
    if (details) details.open = false;
    render();
    if (item.error) showProblems(form, [item.error]);
    const section = form.closest(".entry") || form;
    if (section.scrollIntoView) section.scrollIntoView({ block: "start" });
  }

  // The first deal waiting was refused and nobody is typing the next one: it opens in
  // the form at once.
  function autoMend() {
    const url = sheetUrl();
    const form = entryForm();
    if (!url || !form || typing || !form.classList.contains("is-enhanced")) return;
    const items = load(url);
    const mending = items.find((item) => item.mending);
    if (mending) {
      // (After a reload: the form shows it again.)
      if (!form.dataset.mending) mend(mending.key);
    } else if (items.length && items[0].error) {
      mend(items[0].key);
    }
    form.dataset.mending = load(url).some((item) => item.mending) ? "1" : "";
  }

  // A deal no longer corrected (sent, retried as it was, or discarded): the form is
  // emptied for the next deal.
  function stopMending(url, key) {
    const item = load(url).find((each) => each.key === key);
    if (!item || !item.mending) return;
    update(url, key, { mending: false });
    const form = entryForm();
    if (form) {
      form.dataset.mending = "";
      clearForm(form);
    }
  }

  // Sent, but no answer came (the connection dropped on the way): kept with the key it
  // was sent with, so that if the server did store it, sending it again stores nothing.
  document.addEventListener("htmx:sendError", function (event) {
    const form = event.detail.elt;
    if (!isEntryForm(form) || !sheetUrl()) return;
    const key = form.querySelector("input[name=idempotency_key]");
    if (keep(form, (key && key.value) || newKey())) flushSoon();
  });

  // A gateway's answer (502, 503, 504: the server is down or did not answer in time)
  // is no refusal: the deal is kept and sent again with the same key, like a lost one.
  document.addEventListener("htmx:responseError", function (event) {
    const form = event.detail.elt;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!isEntryForm(form) || !sheetUrl() || [502, 503, 504].indexOf(status) < 0) return;
    const key = form.querySelector("input[name=idempotency_key]");
    if (keep(form, (key && key.value) || newKey())) retryLater();
  });

  // After deals were sent from this page without loading it afresh (the next deal was
  // being typed), the form's version is older than the sheet: the next deal goes as the
  // one the form names, like a deal kept here (if another phone saved that one
  // meanwhile, the server says so: 412).
  document.addEventListener("htmx:configRequest", function (event) {
    if (sentWithoutReload && isEntryForm(event.detail.elt)) {
      const number = nextNumber([]);
      if (event.detail.formData) {
        event.detail.formData.delete("version");
        if (number) event.detail.formData.set("entered_as", String(number));
      } else if (event.detail.parameters) {
        delete event.detail.parameters.version;
        if (number) event.detail.parameters.entered_as = String(number);
      }
    }
  });

  // The server drew the board again (a refusal, the sheet as it is now, an undo): its
  // form names the sheet's next deal itself, after the deals sent from this page.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    if (detail.shouldSwap && detail.target && detail.target.id === "board" && detail.swapOverride !== "none") {
      sentWithoutReload = 0;
    }
  });

  // -- sending ----------------------------------------------------------------------------

  function pageToken(html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const input = page.querySelector("input[name=csrfmiddlewaretoken]");
    if (input && input.value) return input.value;
    try {
      return JSON.parse(page.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || null;
    } catch (error) {
      return null;
    }
  }

  function refusal(html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const reasons = Array.from(page.querySelectorAll("#form-errors li, .error-box li")).map(words);
    const unique = reasons.filter((reason, index) => reason && reasons.indexOf(reason) === index);
    return unique.join(" ") || words(page.querySelector(".error-box, .field-error"));
  }

  // Whether a deal was just held because the sheet went on without it.
  let heldStale = false;

  async function sendAll(url) {
    const data = outbox() ? outbox().dataset : {};
    // The sheet as it is now: is the link still good, and a CSRF token of this session.
    let response;
    try {
      response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    } catch (error) {
      retrySoon(); // still no connection (or not quite yet: "online" can come early)
      return 0;
    }
    const first = load(url)[0];
    if (response.status === 404 || response.status === 410) {
      if (first) update(url, first.key, { error: data.gone });
      return 0;
    }
    const token = response.ok ? pageToken(await response.text()) : null;
    if (!token) {
      problem = data.server;
      retryLater();
      return 0;
    }
    let sent = 0;
    for (;;) {
      const item = load(url)[0];
      if (!item || item.error) break;
      const fields = new URLSearchParams(item.body);
      fields.set("idempotency_key", item.key);
      fields.set("csrfmiddlewaretoken", token);
      // Stored only as the deal it was entered as, unless the player said "anyway".
      if (item.number && !item.anyway) fields.set("entered_as", String(item.number));
      let answer;
      try {
        // The answer is the whole page (HX-Boosted), the sheet with this deal: it is
        // the copy kept for offline use, even if the connection is gone again before
        // the page can be loaded afresh.
        answer = await fetch(url, {
          method: "POST",
          credentials: "same-origin",
          cache: "no-store",
          headers: { "X-CSRFToken": token, "HX-Request": "true", "HX-Boosted": "true" },
          body: fields,
        });
      } catch (error) {
        retrySoon(); // the connection went again: the rest waits
        break;
      }
      if (answer.ok) {
        // The number it has on the sheet (another than it was entered as if sent anyway).
        const landed = Number(answer.headers.get("X-Deal-Number")) || 0;
        update(url, item.key, null, landed && item.number ? landed - item.number : 0);
        sent += 1;
        await keepCopy(url, answer);
        continue;
      }
      if (answer.status === 404 || answer.status === 410) {
        update(url, item.key, { error: data.gone });
      } else if (answer.status === 403) {
        update(url, item.key, { error: data.forbidden });
      } else if (answer.status === 412) {
        // The sheet went on without it (another phone saved that deal meanwhile): held
        // until the player sends it anyway or discards it.
        update(url, item.key, { error: refusal(await answer.text()) || String(answer.status), stale: true });
        heldStale = true;
      } else if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
        update(url, item.key, { error: refusal(await answer.text()) || String(answer.status) });
      } else {
        problem = data.server; // 429, 5xx: the same deal again in a moment
        retryLater();
      }
      break;
    }
    if (sent) problem = "";
    return sent;
  }

  let retryTimer = null;
  let backoff = 0;

  function retryLater() {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(flush, RETRY_MS);
  }

  // A connection that is not there yet: again in 1, 2, 4 … seconds (at most RETRY_MS),
  // as long as the phone says it is online; the online event starts again from 1.
  function retrySoon() {
    if (!navigator.onLine) return;
    backoff = Math.min(backoff ? backoff * 2 : 1000, RETRY_MS);
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(flush, backoff);
  }

  function flushSoon() {
    window.setTimeout(flush, 0);
  }

  function flush() {
    const url = sheetUrl();
    if (!url || sending || !navigator.onLine) return;
    const items = load(url);
    if (!items.length || items[0].error) return;
    sending = true;
    render();
    const run = () => sendAll(url);
    heldStale = false;
    // One tab at a time sends a sheet's deals (the keys would make a second copy
    // harmless, but the order is kept best by one sender).
    const done = navigator.locks ? navigator.locks.request(storeKey(url), run) : run();
    done
      .then(function (sent) {
        sending = false;
        if (sent) backoff = 0;
        if (heldStale && !typing && entryForm()) {
          // Held because the sheet went on: the page shows the sheet as it is now, to
          // be checked (the held deal opens in the form, as the next one).
          window.location.reload();
          return undefined;
        }
        if (!sent) {
          render();
          autoMend();
          return undefined;
        }
        if (!typing || !entryForm()) {
          window.location.reload();
          return undefined;
        }
        // The next deal is being typed: the sheet is loaded afresh once it is saved.
        sentWithoutReload += sent;
        return render();
      })
      .catch(function () {
        sending = false;
        render();
      });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#outbox button");
    if (!button) return;
    const url = sheetUrl();
    const row = button.closest(".outbox-deal");
    if (button.classList.contains("outbox-send")) {
      problem = "";
      flush();
    } else if (row && button.classList.contains("outbox-mend")) {
      mend(row.dataset.key);
    } else if (row && button.classList.contains("outbox-retry")) {
      stopMending(url, row.dataset.key);
      update(url, row.dataset.key, { error: null });
      render();
      flush();
    } else if (row && button.classList.contains("outbox-anyway")) {
      // As it was kept, as the sheet's next deal (the same key: a deal the server has
      // stored already is not stored again).
      stopMending(url, row.dataset.key);
      update(url, row.dataset.key, { error: null, stale: false, anyway: true });
      render();
      flush();
    } else if (row && button.classList.contains("outbox-discard")) {
      if (!window.confirm(outbox().dataset.confirmDiscard)) return;
      stopMending(url, row.dataset.key);
      // The ones after it follow one number sooner; not after a deal held because the
      // sheet went on without it (another phone saved that deal: the sheet has it).
      const item = load(url).find((each) => each.key === row.dataset.key);
      update(url, row.dataset.key, null, item && item.stale ? 0 : -1);
      render();
      flush();
    }
  });

  // Answers are looked at in htmx:beforeOnLoad, before anything is swapped: a saved deal's
  // answer replaces the form, and an event on an element no longer in the page reaches
  // no listener here.
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const detail = event.detail;
    const saved = detail.xhr && detail.xhr.status >= 200 && detail.xhr.status < 300;
    if (!isEntryForm(detail.elt) || !saved) return;
    typing = false;
    if (sentWithoutReload) window.location.reload();
  });

  // -- the copy the service worker keeps of this sheet --------------------------------------

  const SHEET_PAGE = /^\/(?:[a-z]{2}\/)?[sv]\/[A-Za-z0-9_-]+\/$/;
  const PAGES_CACHE = "scorekeeper-pages"; // the service worker's copies of sheets (sw.js)
  let refreshTimer = null;
  // A change shown here that the copy does not have yet (its fetch found no connection).
  let copyBehind = false;

  // After a change shown by htmx, the copy kept for offline use is fetched again, so
  // that a reload without a connection shows the sheet as it was last seen: at once
  // (the answer of a save starts it before the page shows the change; a connection
  // lost a moment later does not stop a request already sent), and again once the
  // connection is back if it found none. ``delay``: the read-only sheet's updates wait
  // a moment, several in a row make one fetch.
  function refreshCopy(delay) {
    if (!SHEET_PAGE.test(window.location.pathname)) return;
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    window.clearTimeout(refreshTimer);
    copyBehind = true;
    function fetchCopy() {
      // no-store: from the server or not at all (the worker answers no copy of itself).
      fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status === 200 && !response.redirected) copyBehind = false;
        })
        .catch(() => undefined);
    }
    if (delay) refreshTimer = window.setTimeout(fetchCopy, delay);
    else fetchCopy();
  }

  // The whole page a deal sent from the outbox was answered with (the sheet with it) is
  // the copy from now on: the connection may be gone again before anything else loads.
  async function keepCopy(url, answer) {
    const path = new URL(url, window.location.origin).pathname;
    if (!window.caches || !("serviceWorker" in navigator) || !SHEET_PAGE.test(path) || answer.redirected) return;
    try {
      const cache = await window.caches.open(PAGES_CACHE);
      await cache.put(new URL(path, window.location.origin).href, answer);
      if (path === window.location.pathname) copyBehind = false;
    } catch (error) {
      // Not kept: the next load with a connection keeps one.
    }
  }

  // A sheet opened before the service worker was there (the first visit) has no copy
  // yet: this page keeps one, so that it opens without a connection from now on.
  function ensureCopy() {
    if (!SHEET_PAGE.test(window.location.pathname) || !window.caches || !navigator.onLine) return;
    const key = new URL(window.location.pathname, window.location.origin).href;
    window.caches
      .open(PAGES_CACHE)
      .then(function (cache) {
        return cache.match(key).then(function (copy) {
          if (copy) return undefined;
          return fetch(key, { credentials: "same-origin" }).then(function (response) {
            if (response.status === 200 && !response.redirected) return cache.put(key, response);
            return undefined;
          });
        });
      })
      .catch(() => undefined);
  }

  // The card pickers of the form load when their section opens (cards_ui.lazy_picker_html);
  // without a connection they would not load at all. Once the service worker looks after
  // this page, each is fetched once in a quiet moment, and the worker keeps a copy.
  function keepPickers() {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller || !window.caches) return;
    const urls = new Set();
    document.querySelectorAll(".card-picker-lazy[hx-get]").forEach((lazy) => urls.add(lazy.getAttribute("hx-get")));
    urls.forEach(function (url) {
      window.caches
        .match(url, { ignoreVary: true })
        .then((copy) => (copy || !navigator.onLine ? undefined : fetch(url, { credentials: "same-origin" })))
        .catch(() => undefined);
    });
  }

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const detail = event.detail;
    const config = detail.requestConfig || {};
    // (412: nothing was changed, but the answer shows the sheet another phone changed.)
    const status = detail.xhr ? detail.xhr.status : 0;
    if (status !== 412 && (status < 200 || status >= 300 || status === 204)) return;
    const path = String(config.path || "");
    if (config.verb === "post" && !/\/preview$/.test(path)) refreshCopy();
    else if (detail.elt && detail.elt.matches && detail.elt.matches(".live")) refreshCopy(800);
  });

  // -- the read-only sheet: live or not -----------------------------------------------------

  // When the sheet was last seen live: as an earlier page kept it, else when this page
  // loaded. Read when first needed, not at load (opening the phone's storage takes time).
  const loadedAt = Date.now();
  let lastLive = null;

  function lastLiveTime() {
    if (lastLive === null) {
      try {
        lastLive = Number(window.localStorage.getItem(LIVE + window.location.pathname)) || loadedAt;
      } catch (error) {
        lastLive = loadedAt; // without storage the time is this page's
      }
    }
    return lastLive;
  }

  function liveWords(live) {
    let span = live.querySelector(".live-words");
    if (!span) {
      span = document.createElement("span");
      span.className = "live-words";
      Array.from(live.childNodes).forEach(function (node) {
        if (node.nodeType === Node.TEXT_NODE) span.appendChild(node);
      });
      live.appendChild(span);
      span.dataset.live = words(span);
      live.setAttribute("aria-live", "polite");
    }
    return span;
  }

  // Times as the page's language writes them (the reader's own variant of it, if the
  // browser has one: en-GB, de-AT).
  function locales() {
    const lang = (document.documentElement.lang || "").toLowerCase();
    if (!lang) return [];
    const own = (navigator.languages || []).find((each) => each.toLowerCase().split("-")[0] === lang.split("-")[0]);
    return [own || lang];
  }

  function setLive(ok, why) {
    const live = document.querySelector(".live");
    const here = document.getElementById("this-sheet");
    if (!live || !here) return;
    const span = liveWords(live);
    live.classList.toggle("is-not-live", !ok);
    if (ok) {
      lastLive = Date.now();
      try {
        window.localStorage.setItem(LIVE + window.location.pathname, String(lastLive));
      } catch (error) {
        // Without storage the time is this page's.
      }
      span.textContent = span.dataset.live;
      return;
    }
    const time = new Date(lastLiveTime()).toLocaleTimeString(locales(), { hour: "2-digit", minute: "2-digit" });
    const text = {
      gone: here.dataset.notLiveGone,
      server: here.dataset.notLiveServer,
    }[why] || here.dataset.notLive;
    span.textContent = text.replace("{time}", time);
  }

  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt && event.detail.elt.matches && event.detail.elt.matches(".live")) {
      setLive(false, "connection");
    }
  });

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const detail = event.detail;
    if (!detail.elt || !detail.elt.matches || !detail.elt.matches(".live") || !detail.xhr) return;
    const status = detail.xhr.status;
    if (status >= 200 && status < 400) setLive(true);
    else if (status === 404 || status === 410) setLive(false, "gone");
    else if (status) setLive(false, "server");
  });

  // -- when things change -------------------------------------------------------------------

  window.addEventListener("online", function () {
    problem = "";
    backoff = 0;
    render();
    flush();
    if (copyBehind) refreshCopy();
  });

  window.addEventListener("offline", function () {
    render();
    setLive(false, "connection");
  });

  // The board was swapped (a deal saved, the read-only sheet updated): draw it again.
  document.addEventListener("htmx:afterSettle", function () {
    render();
    if (!navigator.onLine) setLive(false, "connection");
  });

  // A page that came from the service worker's copy carries the key of the form as it
  // was then; each load gets a key of its own, so no two deals ever share one.
  const form = entryForm();
  const formKey = form && form.querySelector("input[name=idempotency_key]");
  if (formKey) formKey.value = newKey();

  // The rest of the start waits for a task of its own, after DOMContentLoaded's (where
  // htmx reads the page): on a slow phone a few short tasks block no tap, one long one
  // does. The deals waiting here are listed and sent, a refused one opens in the form
  // (entry.js has set the form up by then).
  function start() {
    const restored = entryForm() && entryForm().querySelector(".restored");
    if (restored) typing = true;
    render();
    if (!navigator.onLine) setLive(false, "connection");
    flush();
    autoMend();
  }
  if (document.readyState === "complete") window.setTimeout(start, 0);
  else document.addEventListener("DOMContentLoaded", () => window.setTimeout(start, 0));
  if (navigator.serviceWorker) navigator.serviceWorker.ready.then(ensureCopy, () => undefined);
  // The worker shows its offline page in the language of the pages read here, also for
  // a link without one ("/", the installed app's start).
  function tellLanguage() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && document.documentElement.lang) worker.postMessage({ language: document.documentElement.lang });
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", tellLanguage);
    window.addEventListener("load", tellLanguage);
  }
  if (entryForm()) {
    window.addEventListener("load", function () {
      const later = window.requestIdleCallback || ((run) => window.setTimeout(run, 2000));
      later(keepPickers, { timeout: 5000 });
    });
  }
  // The online and offline events can go missing (a browser may not send them for a
  // change it noticed late): the state is also looked at every few seconds.
  let wasOnline = navigator.onLine;
  window.setInterval(function () {
    if (navigator.onLine === wasOnline) return;
    wasOnline = navigator.onLine;
    window.dispatchEvent(new Event(wasOnline ? "online" : "offline"));
  }, 3000);
  window.addEventListener("online", () => (wasOnline = true));
  window.addEventListener("offline", () => (wasOnline = false));
  // navigator.onLine can say yes on a network that reaches nothing: try again now and then.
  window.setInterval(function () {
    const url = sheetUrl();
    if (url && load(url).length) flush();
  }, RETRY_MS * 2);
})();
