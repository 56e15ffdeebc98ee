// Card picker: tapping a card face selects it (two-deck games: 0 → 1 → 2 → 0 copies),
// and the picker adds up the card points as cards are tapped. Without JavaScript the
// tick boxes still work and the server adds everything up.
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

  function init(root) {
    root.querySelectorAll(".card-picker").forEach(function (picker) {
      if (picker.dataset.ready) return;
      picker.dataset.ready = "1";
      picker.classList.add("is-enhanced");
      picker.addEventListener("change", function () { update(picker); });
      picker.addEventListener("click", function (event) {
        var face = event.target.closest(".card-face");
        if (!face || event.target.closest("label")) return;
        tapFace(face);
      });
      picker.addEventListener("keydown", function (event) {
        var face = event.target.closest(".card-face");
        if (face && (event.key === " " || event.key === "Enter") && event.target === face) {
          event.preventDefault();
          tapFace(face);
        }
      });
      picker.querySelectorAll(".card-face").forEach(function (face) {
        face.setAttribute("tabindex", "0");
        face.setAttribute("role", "button");
      });
      update(picker);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
