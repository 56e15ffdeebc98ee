// The Pitch trick judge (templates/games/referee/pitch_trick.html).
// After a card is tapped, show it on its line and open the next card's picker, so
// the four pickers do not fill the screen. Without this, each line opens by hand.
// Its few words come from the card picker's script tag (templates/base.html), translated there.
(function () {
  "use strict";
  var words = document.querySelector("script[data-joker-high]");
  function word(name) {
    return (words && words.dataset[name]) || "";
  }
  function chosen(details) {
    var box = details.querySelector("input:checked");
    var face = box && box.closest(".card-face");
    var target = details.querySelector("[data-chosen]");
    if (!face) {
      var none = document.createElement("span");
      none.className = "pick-none";
      none.textContent = word("noneChosen");
      target.replaceChildren(none);
      return false;
    }
    var text = face.querySelector(".card-text").cloneNode(true);
    var card = document.createElement("span");
    var joker = face.dataset.code.indexOf("JOKER") === 0;
    card.className = "mini-card" + (face.classList.contains("red") ? " red" : "") + (joker ? " joker" : "");
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", face.querySelector(".visually-hidden").textContent);
    text.className = "mini-text";
    if (joker) {
      var which = document.createElement("small");
      which.textContent = word(face.dataset.code === "JOKER-HIGH" ? "jokerHigh" : "jokerLow");
      text.appendChild(which);
    }
    card.appendChild(text);
    target.replaceChildren(card);
    return true;
  }
  function init(root) {
    root.querySelectorAll("details.pick-one").forEach(function (details) {
      if (details.dataset.ready) return;
      details.dataset.ready = "1";
      details.addEventListener("change", function () {
        var picker = details.querySelector(".card-picker");
        picker.dispatchEvent(new Event("change"));
        if (!chosen(details)) return;
        details.open = false;
        var next = details.nextElementSibling;
        while (next && !next.matches("details.pick-one")) next = next.nextElementSibling;
        if (next && !next.querySelector(".card-face input:checked")) {
          next.open = true;
          next.querySelector("summary").scrollIntoView({ block: "nearest" });
        }
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
