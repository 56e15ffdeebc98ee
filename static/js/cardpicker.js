// Card picker: tapping a card face selects it (two-deck games: 0 → 1 → 2 → 0 copies),
// and the picker adds up the card points as cards are tapped. Without JavaScript, and
// from the keyboard, the tick boxes work as they are and the server adds everything up.
(function () {
  "use strict";

  function update(picker) {
    var sum = 0, count = 0;
    picker.querySelectorAll("input").forEach(function (box) {
      if (box.checked) { sum += Number(box.dataset.value || 0); count += 1; }
    });
    var sumOut = picker.querySelector("[data-sum]");
    var countOut = picker.querySelector("[data-count]");
    if (sumOut) sumOut.textContent = sum;
    if (countOut) countOut.textContent = count;
    picker.querySelectorAll(".card-face").forEach(function (face) {
      var held = face.querySelectorAll("input:checked").length;
      face.dataset.held = held;
      face.classList.toggle("is-selected", held > 0);
    });
  }

  function tapFace(face) {
    var radio = face.querySelector("input[type=radio]");
    if (radio) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    var boxes = face.querySelectorAll("input[type=checkbox]");
    var held = face.querySelectorAll("input:checked").length;
    var next = (held + 1) % (boxes.length + 1);
    boxes.forEach(function (box, i) { box.checked = i < next; });
    boxes[0].dispatchEvent(new Event("change", { bubbles: true }));
  }

  // The pickers in a part of the page, the part itself included: a picker loaded when
  // its section opens (games.cards_ui.lazy_picker_html) is swapped in as the whole root.
  function pickersIn(root) {
    var found = root.querySelectorAll ? Array.prototype.slice.call(root.querySelectorAll(".card-picker")) : [];
    if (root.matches && root.matches(".card-picker")) found.unshift(root);
    return found;
  }

  function init(root) {
    pickersIn(root).forEach(function (picker) {
      if (picker.dataset.ready) return;
      picker.dataset.ready = "1";
      picker.classList.add("is-enhanced");
      picker.addEventListener("change", function () { update(picker); });
      picker.addEventListener("click", function (event) {
        var face = event.target.closest(".card-face");
        if (!face || event.target.closest("label")) return;
        tapFace(face);
      });
      // The keyboard and screen readers keep the tick boxes (one per copy, each named
      // "ten of hearts, second copy"): a face is not made a button around them, which
      // would nest one control in another.
      picker.querySelectorAll(".card-face").forEach(function (face) {
        // Two decks: "×2" under the suit once both copies are held (CSS shows it), in a
        // row of its own, so it never covers the rank of a 10.
        if (picker.dataset.copies === "2" && !face.querySelector(".held-badge")) {
          var badge = document.createElement("span");
          badge.className = "held-badge";
          badge.setAttribute("aria-hidden", "true");
          badge.textContent = "\u00d72";
          face.appendChild(badge);
        }
      });
      update(picker);
    });
  }

  // A form put back to its defaults (the next deal, or a deal kept offline): "reset"
  // comes before the boxes change, so the pickers count again just after.
  document.addEventListener("reset", function (event) {
    var pickers = pickersIn(event.target);
    if (pickers.length) window.setTimeout(function () { pickers.forEach(update); }, 0);
  }, true);
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
