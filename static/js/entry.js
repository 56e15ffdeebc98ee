// The deal entry form (issue 9): taps, defaults, a half-entered deal kept over a reload.
//
// Everything here only makes the form faster; without it the form still posts and the
// server reads the same fields (games/entry_forms.py). Strings shown to the player come
// from data- attributes the templates render (translated there). No inline code runs:
// the page's CSP allows scripts from files only.
(function () {
  "use strict";

  var SUIT_AND_GRAND = ["diamonds", "hearts", "spades", "clubs", "grand"];
  var STORE = "scorekeeper:entry:";
  var justSaved = false;

  // -- helpers ---------------------------------------------------------------------------

  function checked(form, name) {
    var input = form.querySelector("input[name='" + name + "']:checked");
    return input ? input.value : null;
  }

  function box(form, name) {
    return form.querySelector("input[type=checkbox][name='" + name + "']");
  }

  function visible(element) {
    return element.offsetParent !== null || element.getClientRects().length > 0;
  }

  function numbers(text) {
    return (text || "").split(/\s+/).filter(Boolean).map(Number);
  }

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // -- Skat: the declarer or "Everyone passed" -------------------------------------------

  function skatMode(form, target) {
    if (target.name === "declarer") {
      var game = form.querySelector("input[name=mode][value=game]");
      if (game && !game.checked) game.checked = true;
    } else if (target.name === "mode" && target.value === "passed") {
      form.querySelectorAll("input[name=declarer]").forEach(function (r) { r.checked = false; });
      var first = form.querySelector(".ramsch input[type=number]");
      if (first && !first.value) first.focus();
    }
  }

  // -- Skat: a game entered by its value (48, −96): the number is typed at once ----------

  function skatByValue(form) {
    var on = box(form, "by_value");
    var field = form.querySelector("input[name=value]");
    if (on && on.checked && field && !field.value) field.focus();
  }

  // -- Skat: Ouvert means Hand for a suit or grand game ----------------------------------

  function skatHand(form, target) {
    var game = checked(form, "game");
    var hand = box(form, "hand"), ouvert = box(form, "ouvert");
    if (!hand || !ouvert || SUIT_AND_GRAND.indexOf(game) < 0) return;
    if (target === hand && !hand.checked) ouvert.checked = false;
    else if (ouvert.checked) hand.checked = true;
    // An open suit or grand game is won only by taking every trick: unless the player
    // chose the result already, the one offered is "schwarz" (and back, without Ouvert).
    var grid = form.querySelector(".outcome-grid");
    if (!grid || grid.dataset.touched) return;
    var outcome = ouvert.checked ? "won_schwarz" : "won";
    var radio = grid.querySelector("input[value='" + outcome + "']");
    if (radio) radio.checked = true;
  }

  // -- Skat: the bid chips follow the game -----------------------------------------------

  function declaredValue(form) {
    var chips = form.querySelector(".bid-chips");
    var game = form.querySelector("input[name=game]:checked");
    if (!chips || !game) return null;
    var hand = box(form, "hand"), ouvert = box(form, "ouvert");
    hand = !!(hand && hand.checked);
    ouvert = !!(ouvert && ouvert.checked);
    if (game.value === "null") {
      var nulls = numbers(chips.dataset.nullValues); // Null, Hand, Ouvert, Ouvert Hand
      return nulls[(ouvert ? 2 : 0) + (hand ? 1 : 0)];
    }
    var base = Number(game.dataset.base);
    if (!base) return null;
    var tap = (checked(form, "matadors_tap") || "").split("-");
    var count = Number(tap[1]) || 1;
    var said = ouvert ? "schwarz" : checked(form, "announced");
    var levels = count + 1 + (hand || ouvert ? 1 : 0);
    if (said === "schneider" || said === "schwarz") levels += 2;
    if (said === "schwarz") levels += 2;
    if (ouvert) levels += 1;
    return base * levels;
  }

  // The same choice as games.entry_forms.skat_bid_chips: at most six, the game's value
  // first, then the next multiple of its base, the multiples below it and the low bids.
  function bidChips(form, value) {
    var chips = form.querySelector(".bid-chips");
    var low = numbers(chips.dataset.lowBids);
    if (value === null) return low;
    var wanted = [];
    var game = form.querySelector("input[name=game]:checked");
    var base = Number(game && game.dataset.base);
    if (base) {
      wanted.push(value + base);
      var below = 0;
      for (var m = Math.floor(value / base) - 1; m >= 2 && below < 2; m -= 1) {
        if (base * m >= low[0]) { wanted.push(base * m); below += 1; }
      }
    }
    low.forEach(function (bid) { if (bid < value) wanted.push(bid); });
    var others = [];
    wanted.forEach(function (bid) {
      if (bid !== value && others.indexOf(bid) < 0 && others.length < 5) others.push(bid);
    });
    others.sort(function (a, b) { return a - b; });
    return [value].concat(others);
  }

  function skatBids(form, keep) {
    var chips = form.querySelector(".bid-chips");
    if (!chips) return;
    if (chips.dataset.defaultBid === undefined) {
      // The bid chosen in the form as drawn (a new deal's: 18), before anything replaced a chip.
      var drawn = chips.querySelector("input[name=bid][checked]");
      chips.dataset.defaultBid = drawn ? drawn.value : "";
    }
    var value = declaredValue(form);
    var wanted = bidChips(form, value);
    var current = keep || checked(form, "bid");
    if (current && current !== "other" && wanted.indexOf(Number(current)) < 0) {
      wanted.push(Number(current));
    }
    var shown = Array.prototype.map.call(
      chips.querySelectorAll("label:not(.other-bid) input"), function (i) { return Number(i.value); });
    var marked = chips.querySelector("label.is-value input");
    var same = shown.join() === wanted.join() && (marked ? Number(marked.value) : null) === value;
    if (!same) {
      var other = chips.querySelector(".other-bid");
      chips.querySelectorAll("label:not(.other-bid)").forEach(function (label) { label.remove(); });
      wanted.forEach(function (bid) {
        var label = document.createElement("label");
        var input = document.createElement("input");
        input.type = "radio";
        input.name = "bid";
        input.value = String(bid);
        // The chip of the bid the form was drawn with stays its default, so that the
        // form's reset for the next deal (nextDeal) chooses it again.
        input.defaultChecked = String(bid) === chips.dataset.defaultBid;
        input.checked = String(bid) === current;
        var face = document.createElement("span");
        face.textContent = String(bid);
        if (bid === value) {
          label.className = "is-value";
          var note = document.createElement("span");
          note.className = "visually-hidden";
          note.textContent = ", " + (chips.dataset.valueLabel || "");
          face.appendChild(note);
        }
        label.appendChild(input);
        label.appendChild(face);
        chips.insertBefore(label, other);
      });
    }
    if (keep) {
      var kept = chips.querySelector("input[name=bid][value='" + keep + "']");
      if (kept) kept.checked = true;
    }
    var hint = form.querySelector(".legend-hint");
    if (hint) {
      // (Written only when it changes: the same words written again still cost a layout.)
      var worth = value === null ? "" : "· " + hint.dataset.worth.replace("%(value)s", value);
      if (hint.textContent !== worth) hint.textContent = worth;
    }
  }

  // -- Skat: the Ramsch's last player is what the others leave ---------------------------

  // ``editing`` is the field being typed in: it is the player's, never filled in.
  function ramschWorkOut(form, editing) {
    var grid = form.querySelector(".ramsch-grid");
    if (!grid) return;
    ["points", "tricks"].forEach(function (kind) {
      var inputs = Array.prototype.slice.call(
        grid.querySelectorAll("input[name^='ramsch_" + kind + "_']"));
      if (inputs.length !== 3) return;
      var typed = inputs.filter(function (i) { return i.value !== "" && !i.dataset.derived; });
      var rest = inputs.filter(function (i) { return typed.indexOf(i) < 0; });
      var whole = typed.every(function (i) { return /^\d+$/.test(i.value); });
      var total = Number(inputs[0].dataset.total);
      var left = total - typed.reduce(function (sum, i) { return sum + Number(i.value); }, 0);
      inputs.forEach(function (i) {
        if (i.dataset.derived && !(rest.length === 1 && rest[0] === i)) clear(i);
      });
      if (rest.length === 1 && whole && left >= 0 && rest[0] !== editing) {
        var last = rest[0];
        if (last.value === "" || last.dataset.derived) {
          last.value = String(left);
          last.dataset.derived = "1";
          last.closest("label").classList.add("is-derived");
          last.closest("label").dataset.note = grid.dataset.workedOut || "";
        }
      } else if (rest.length === 1 && rest[0].dataset.derived) {
        clear(rest[0]);
      }
    });

    function clear(input) {
      input.value = "";
      delete input.dataset.derived;
      input.closest("label").classList.remove("is-derived");
    }
  }

  function ramschTyped(target) {
    if (target.dataset && target.dataset.derived) {
      // The player typed over the worked-out number: theirs counts from now on.
      delete target.dataset.derived;
      target.closest("label").classList.remove("is-derived");
    }
  }

  // -- Pitch: unmarked point cards go to the pitcher's team ------------------------------

  function pitchDefaults(form) {
    var pitcher = form.querySelector("input[name=pitcher]:checked");
    if (!pitcher) return;
    // The rest went to the pitcher's team, or to the other one when the player says so.
    var team = pitcher.dataset.team;
    var other = box(form, "points_rest_other");
    if (other && other.checked) team = team === "A" ? "B" : "A";
    form.querySelectorAll(".point-choice").forEach(function (group) {
      if (group.dataset.touched) return;
      var own = group.querySelector("input[value='" + team + "']");
      if (own) own.checked = true;
    });
  }

  // -- Manipulation: after who went out, the first penalty to type -----------------------

  function manipulationNext(form) {
    var by = checked(form, "count_by");
    if (by && by !== "penalties") return;
    var out = checked(form, "went_out");
    form.querySelectorAll(".penalty-field").forEach(function (field) {
      field.classList.toggle("is-out", field.dataset.seat === out);
    });
    var next = Array.prototype.find.call(form.querySelectorAll(".penalty-field"), function (field) {
      var input = field.querySelector("input");
      return field.dataset.seat !== out && input && input.value === "";
    });
    if (next) next.querySelector("input").focus();
  }

  // -- Enter moves to the next number, as on paper ---------------------------------------

  function nextNumber(form, input) {
    var inputs = Array.prototype.filter.call(
      form.querySelectorAll("input[type=number]"), function (i) { return visible(i) && !i.readOnly; });
    var next = inputs[inputs.indexOf(input) + 1];
    if (next) next.focus();
    else input.blur();
  }

  // -- A half-entered deal survives a reload ---------------------------------------------

  function storeKey(form) {
    return form.dataset.entryKey ? STORE + form.dataset.entryKey : null;
  }

  // The sheet's next deal was kept under its number before (/en/s/…/#3): read once
  // more where nothing is kept under the sheet's key yet (a tab open across an update).
  function oldKey(form) {
    return form.dataset.deal && form.querySelector("#entry-meta") ? STORE + window.location.pathname + "#" + form.dataset.deal : null;
  }

  function save(form) {
    var key = storeKey(form);
    if (!key) return;
    var fields = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      // (What the form hides for now is kept too: it shows again as it was.)
      if (!el.name || el.type === "hidden" || (el.disabled && !el.dataset.hiddenOff)) return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      if (el.tagName === "BUTTON") return;
      fields.push([el.name, el.value, el.dataset.derived ? 1 : 0]);
    });
    // A correction holds for the sheet it was typed on (data-entry-version): once saved,
    // or once the sheet changed, what was typed is no longer what the form should show.
    var kept = { fields: fields };
    if (form.dataset.entryVersion) kept.version = form.dataset.entryVersion;
    try {
      sessionStorage.setItem(key, JSON.stringify(kept));
    } catch (error) { /* private mode or full: the form still works */ }
  }

  function forget(form) {
    var key = storeKey(form);
    try {
      if (key) sessionStorage.removeItem(key);
    } catch (error) { /* nothing kept */ }
  }

  // The form holds the values of ``pairs`` (name → values, as a form posts them) and
  // nothing else; ``derived``: the names of numbers worked out, not typed.
  function fill(form, pairs, derived) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.tagName === "BUTTON") return;
      var values = pairs[el.name] || [];
      if (el.type === "radio" || el.type === "checkbox") {
        var at = values.indexOf(el.value);
        el.checked = at >= 0;
        if (at >= 0) values.splice(at, 1); // two copies of a card: two boxes, one value each
        if (el.closest(".point-choice") && el.checked) el.closest(".point-choice").dataset.touched = "1";
      } else if (el.tagName === "SELECT" || el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
        el.value = values.length ? values[0] : "";
        if (derived[el.name]) el.dataset.derived = "1";
      }
    });
    // The bid chips follow the game filled in; its bid is one of them.
    skatBids(form, pairs.bid && pairs.bid.length ? pairs.bid[0] : null);
    sync(form);
    form.querySelectorAll(".card-picker").forEach(function (picker) {
      var first = picker.querySelector("input");
      if (first) changed(first);
    });
  }

  function restore(form) {
    var key = storeKey(form);
    if (!key || form.dataset.restore === "no") return false;
    var kept;
    try {
      kept = JSON.parse(sessionStorage.getItem(key) || "null");
      var old = !kept && oldKey(form);
      if (old && sessionStorage.getItem(old)) {
        kept = JSON.parse(sessionStorage.getItem(old));
        sessionStorage.setItem(key, JSON.stringify(kept));
        sessionStorage.removeItem(old);
      }
    } catch (error) {
      return false;
    }
    if (!kept || !kept.fields || !kept.fields.length) return false;
    if (form.dataset.entryVersion && kept.version !== form.dataset.entryVersion) {
      // Typed on the sheet as it was before a change (this correction saved, or another
      // phone's): not brought back over the sheet as it is now.
      forget(form);
      return false;
    }
    var pairs = {}, derived = {};
    kept.fields.forEach(function (field) {
      (pairs[field[0]] = pairs[field[0]] || []).push(field[1]);
      if (field[2]) derived[field[0]] = true;
    });
    fill(form, pairs, derived);
    var note = document.createElement("p");
    note.className = "restored";
    note.setAttribute("role", "status");
    note.textContent = form.dataset.restored || "";
    form.insertBefore(note, form.firstElementChild);
    // Once htmx has read the page (on DOMContentLoaded, which may be still to come: this
    // script runs before it), the preview shows the restored deal.
    afterHtmxRead(function () {
      form.dispatchEvent(new CustomEvent("entry:restored", { bubbles: true }));
    });
    return true;
  }

  // -- The rule book in a dialog over the form -------------------------------------------

  function fragmentUrl(dialog, link) {
    if (link.dataset.ruleFragment) return link.dataset.ruleFragment;
    var found = /\/rules\/([a-z-]+)\/#([a-z0-9-]+)$/.exec(link.getAttribute("href") || "");
    if (!found || !dialog.dataset.sectionUrl) return null;
    return dialog.dataset.sectionUrl.replace("GAME", found[1]).replace("SECTION", found[2]);
  }

  function openRule(event) {
    var link = event.target.closest("a.rule-link, .rule-dialog-body a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    var entry = link.closest(".entry");
    var dialog = entry && entry.querySelector("dialog.rule-dialog");
    if (!dialog || typeof dialog.showModal !== "function") return;
    var url = fragmentUrl(dialog, link);
    if (!url) return;
    event.preventDefault();
    var body = dialog.querySelector(".rule-dialog-body");
    var book = dialog.querySelector(".rule-dialog-book");
    if (book) book.href = link.href;
    body.textContent = dialog.dataset.loading || "";
    if (!dialog.open) {
      dialog.opener = link;
      dialog.showModal();
    }
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        body.innerHTML = html;
        body.scrollTop = 0;
        body.focus();
      })
      .catch(function () { body.textContent = dialog.dataset.failed || ""; });
  }

  function closeRule(event) {
    var dialog = event.target.closest("dialog.rule-dialog");
    if (!dialog) return;
    if (event.target === dialog || event.target.closest("[data-close-dialog]")) {
      dialog.close();
    }
  }

  // -- After Save: the next deal's questions in view -------------------------------------

  function fit(form) {
    var entry = form.closest(".entry") || form;
    var top = 0;
    document.querySelectorAll(".topbar, .totals").forEach(function (bar) {
      var style = getComputedStyle(bar);
      if (style.position === "sticky" || style.position === "fixed") {
        top = Math.max(top, bar.getBoundingClientRect().bottom);
      }
    });
    var rect = entry.getBoundingClientRect();
    if (rect.top < top || rect.bottom > window.innerHeight) {
      window.scrollBy({ top: rect.top - top - 8, behavior: "instant" });
    }
  }

  // -- After Save: the same form, reset for the next deal -------------------------------

  // A deal saved from a form drawn fresh is answered without a new form (the answer
  // would be most of its size): the key, version and heading of the next deal came out
  // of band, and the form goes back to the defaults it was drawn with.
  function nextDeal(form, meta) {
    form.dataset.deal = meta.dataset.deal;
    form.dataset.entryKey = meta.dataset.entryKey;
    // A table that keeps its list by value enters the next game by value too.
    var byValue = box(form, "by_value");
    var keepByValue = !!(byValue && byValue.checked);
    form.reset();
    if (byValue) byValue.checked = keepByValue;
    afterReset(form);
  }

  // What form.reset() leaves behind: marks of this script and the sections opened.
  function afterReset(form) {
    form.querySelectorAll(".restored").forEach(function (note) { note.remove(); });
    form.querySelectorAll("[data-touched]").forEach(function (group) { delete group.dataset.touched; });
    form.querySelectorAll("input[data-derived]").forEach(function (input) {
      input.value = "";
      delete input.dataset.derived;
      input.closest("label").classList.remove("is-derived");
    });
    // A fresh form has every section closed (they open for values it was drawn with).
    form.querySelectorAll("details[open]").forEach(function (section) { section.open = false; });
    // The chips were drawn again for the last deal's game: its default bid is chosen anew
    // (a chip that was not there when the form was drawn has no default of its own).
    var chips = form.querySelector(".bid-chips");
    var bid = chips && chips.dataset.defaultBid;
    if (bid && !form.querySelector("input[name=bid]:checked")) skatBids(form, bid);
    sync(form); // the card pickers count again on the form's "reset" (cardpicker.js)
  }

  // -- What the form hides is not sent ---------------------------------------------------

  // A control in a part the form's logic hides (display: none: another game's questions,
  // the announcements of a game that is not played from the hand …) is disabled, so that
  // neither the preview nor Save sends it; it is enabled again once it shows. A section
  // the player closed (details) hides nothing of the kind.
  // ``inSlices``: at load, the controls are looked at a few at a time, each slice a task
  // of its own (on a slow phone, reading the style of every hidden part in one go blocks
  // a tap for a tenth of a second). Anything that needs the answer before then (a change,
  // typing, Save) finishes the work at once (hideHiddenNow); a later call starts anew.
  var pendingHide = new WeakMap();

  function hideHidden(form, inSlices) {
    var job = { left: Array.prototype.slice.call(form.elements), seen: new Map() };
    pendingHide.set(form, job);
    if (!inSlices) {
      hideSome(form, job, Infinity);
      pendingHide.delete(form);
      return;
    }
    (function slice() {
      if (pendingHide.get(form) !== job) return; // done at once, or started anew
      if (hideSome(form, job, 4)) pendingHide.delete(form);
      else yieldThen(slice);
    })();
  }

  function hideHiddenNow(form) {
    var job = form && pendingHide.get(form);
    if (!job) return;
    hideSome(form, job, Infinity);
    pendingHide.delete(form);
  }

  // Looks at the controls left until ``budget`` milliseconds have gone; true when all are done.
  function hideSome(form, job, budget) {
    var seen = job.seen;
    var until = window.performance.now() + budget;
    function hidden(node) {
      if (!node || node === form) return false;
      if (seen.has(node)) return seen.get(node);
      var gone = getComputedStyle(node).display === "none" || hidden(node.parentElement);
      seen.set(node, gone);
      return gone;
    }
    while (job.left.length) {
      if (window.performance.now() > until) return false;
      var el = job.left.shift();
      if (!el.name || el.type === "hidden" || el.tagName === "BUTTON" || el.tagName === "FIELDSET") continue;
      // The switches that choose what shows ("Everyone passed", "Count from the cards")
      // say nothing of the deal by themselves: they stay as they are.
      if (el.dataset.show !== undefined) continue;
      if (el.disabled && !el.dataset.hiddenOff) continue; // disabled by the page itself
      var off = hidden(el.parentElement);
      el.disabled = off;
      if (off) el.dataset.hiddenOff = "1";
      else delete el.dataset.hiddenOff;
    }
    return true;
  }

  // The next task: scheduler.yield where there is one (it keeps its place ahead of
  // other scripts' timers), else a timer.
  function yieldThen(run) {
    if (window.scheduler && typeof window.scheduler.yield === "function") {
      window.scheduler.yield().then(run);
    } else {
      window.setTimeout(run, 0);
    }
  }

  // -- Wiring ------------------------------------------------------------------------------

  // ``atLoad``: the page is just loaded. What the form hides is found once the page has
  // been drawn the first time: reading it now would make the phone work out the style of
  // the whole page at once, in this task, before it could show anything.
  function sync(form, atLoad) {
    skatBids(form);
    ramschWorkOut(form);
    pitchDefaults(form);
    form.querySelectorAll(".penalty-field").forEach(function (field) {
      field.classList.toggle("is-out", field.dataset.seat === checked(form, "went_out"));
    });
    if (atLoad) afterFirstFrame(function () { hideHidden(form, true); });
    else hideHidden(form);
  }

  function afterFirstFrame(run) {
    // (A page in a background tab draws no frame: then on the timer alone.)
    var done = false;
    function once() {
      if (done) return;
      done = true;
      run();
    }
    window.requestAnimationFrame(function () { window.setTimeout(once, 0); });
    window.setTimeout(once, 500);
  }

  function onChange(event) {
    var target = event.target;
    var form = target.form || (target.closest && target.closest("form.entry-form"));
    if (!form || !form.classList.contains("is-enhanced")) return;
    // Runs in the capture phase, before htmx reads the form for the preview. What shows
    // now can take the focus (a disabled field cannot).
    hideHidden(form);
    if (target.name === "declarer" || target.name === "mode") skatMode(form, target);
    if (["hand", "ouvert", "game"].indexOf(target.name) >= 0) skatHand(form, target);
    if (target.name === "bid_other") {
      var other = form.querySelector("input[name=bid][value=other]");
      if (other) other.checked = true;
    }
    var group = target.closest(".point-choice, .outcome-grid");
    if (group && event.isTrusted) group.dataset.touched = "1";
    if (target.name === "went_out" || target.name === "count_by") manipulationNext(form);
    sync(form);
    // After sync: a field is enabled only once it shows (hideHidden), and only then
    // can it take the focus.
    if (target.name === "declarer" || target.name === "by_value") skatByValue(form);
    if (target.name === "by_value") rememberByValue(form);
    if (target.name === "mode" && target.value === "passed") {
      var first = form.querySelector(".ramsch input[type=number]");
      if (first && !first.value) first.focus();
    }
    save(form);
  }

  function onInput(event) {
    var target = event.target;
    var form = target.form;
    if (!form || !form.classList.contains("is-enhanced")) return;
    hideHiddenNow(form);
    if (/^ramsch_/.test(target.name)) {
      ramschTyped(target);
      ramschWorkOut(form, target);
    }
    save(form);
  }

  function onKey(event) {
    var target = event.target;
    if (event.key !== "Enter" || target.type !== "number" || !target.form) return;
    if (!target.form.classList.contains("is-enhanced")) return;
    event.preventDefault();
    nextNumber(target.form, target);
  }

  // ``atLoad``: the page's own form, as this script starts (else one htmx swapped in).
  function init(root, atLoad) {
    var forms = root.matches && root.matches("form.entry-form") ? [root] : root.querySelectorAll("form.entry-form");
    Array.prototype.forEach.call(forms, function (form) {
      if (form.classList.contains("is-enhanced")) return;
      form.classList.add("is-enhanced");
      var meta = form.querySelector("#entry-meta");
      if (meta) form.dataset.deal = meta.dataset.deal;
      form.querySelectorAll(".point-choice").forEach(function (group) {
        if (group.querySelector("input:checked")) group.dataset.touched = "1";
      });
      if (!restore(form)) sync(form, atLoad);
      // A form the server filled with what it was sent (refused, or typed on a sheet
      // that changed meanwhile): that is what is kept over a reload now.
      if (form.dataset.restore === "no") save(form);
      if (justSaved) {
        justSaved = false;
        fit(form);
      }
      // (The correction page posts without htmx. What it posts is kept until the sheet
      // changes: a Save without a connection shows the browser's error page, and the
      // correction is back in the form when it is opened again.)
    });
  }

  document.addEventListener("change", onChange, true);
  document.addEventListener("input", onInput, true);
  // Saved before the controls were all looked at (right after load): what is hidden is
  // disabled first, so that it is not sent (this runs before htmx reads the form).
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form.entry-form")) hideHiddenNow(event.target);
  }, true);
  document.addEventListener("keydown", onKey, true);
  document.addEventListener("click", openRule);
  document.addEventListener("click", closeRule);
  // A saved deal is forgotten as its answer comes, before the swap (once the answer has
  // replaced the whole board, as after the first deal, htmx:afterRequest is no longer
  // the form's). So is one refused because the sheet changed (412): the form the answer
  // brings holds it, if it was not saved, and keeps it from there.
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var form = event.detail && event.detail.elt;
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    if (!form || !form.matches || !form.matches("form.entry-form")) return;
    if ((status >= 200 && status < 300) || status === 412) forget(form);
    if (status >= 200 && status < 300) justSaved = true;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!justSaved) return;
    var form = document.querySelector("form.entry-form.is-enhanced");
    justSaved = false;
    if (!form) return;
    var meta = form.querySelector("#entry-meta");
    if (meta && meta.dataset.deal !== form.dataset.deal) nextDeal(form, meta);
    fit(form);
  });
  // A deal kept offline empties the form (offline.js): start the next one afresh.
  document.addEventListener("scorekeeper:kept", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form.entry-form.is-enhanced")) afterReset(form);
  });
  // A deal kept on this phone that the server refused comes back into the form to be
  // corrected (offline.js): the form holds what was sent, and the preview says what is wrong.
  document.addEventListener("scorekeeper:mend", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.entry-form.is-enhanced")) return;
    var pairs = {};
    new URLSearchParams(event.detail.body || "").forEach(function (value, name) {
      (pairs[name] = pairs[name] || []).push(value);
    });
    form.reset();
    afterReset(form);
    fill(form, pairs, {});
    form.dispatchEvent(new CustomEvent("entry:restored", { bubbles: true }));
  });

  // A problem cut short in the Save bar says that a tap reads it all.
  function markCut() {
    document.querySelectorAll(".entry-save .preview-errors").forEach(function (problems) {
      var first = problems.querySelector(".preview-problem");
      problems.classList.toggle("is-cut", !!first && first.scrollHeight > first.clientHeight + 1);
    });
  }
  document.addEventListener("htmx:afterSettle", markCut);
  // A table that keeps its list by value enters the next game by value too, however the
  // next deal's form comes (reset, drawn anew after a Save, a reload): the choice is kept
  // for the sheet in this tab and a fresh form starts with it.
  var BY_VALUE = "scorekeeper:by-value:";

  function rememberByValue(form) {
    var on = box(form, "by_value");
    if (!on) return;
    try {
      sessionStorage.setItem(BY_VALUE + window.location.pathname, on.checked ? "1" : "");
    } catch (error) { /* not kept */ }
  }

  function byValueAsBefore() {
    var form = document.querySelector("form.entry-form");
    var on = form && box(form, "by_value");
    if (!on || on.checked || form.querySelector("input[name=declarer]:checked, input[name=game]:checked")) return;
    var kept = null;
    try {
      kept = sessionStorage.getItem(BY_VALUE + window.location.pathname);
    } catch (error) { /* nothing kept */ }
    if (kept !== "1") return;
    on.checked = true;
    if (form.classList.contains("is-enhanced")) sync(form);
  }
  document.addEventListener("htmx:afterSettle", byValueAsBefore);
  document.addEventListener("htmx:load", function (event) { init(event.target); });
  document.addEventListener("htmx:load", byValueAsBefore);

  // -- At load ---------------------------------------------------------------------------

  // Whether DOMContentLoaded has been: htmx reads the page then (its listener is added
  // after this script's, which runs first).
  var htmxHasRead = document.readyState === "complete";
  document.addEventListener("DOMContentLoaded", function () { htmxHasRead = true; });

  function afterHtmxRead(run) {
    if (htmxHasRead) window.setTimeout(run, 0);
    else document.addEventListener("DOMContentLoaded", function () { window.setTimeout(run, 0); });
  }

  // The form is made ready in a task of its own just after DOMContentLoaded's (where htmx
  // reads the page and the phone works out the page's style): a few short tasks for a
  // slow phone instead of one long one, which would hold up the first tap.
  function ready() {
    init(document, true);
    byValueAsBefore();
  }
  afterHtmxRead(ready);
})();
