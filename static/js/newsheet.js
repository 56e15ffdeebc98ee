// The new-sheet form: "Who deals first?" offers the players by the names being typed
// ("Ana", not "Seat 1"), and never a seat left empty. Without JavaScript the page says
// "The first player named" and the like, and CSS hides an empty optional seat.
(function () {
  "use strict";

  function setUp(form) {
    var seats = form.querySelectorAll("[data-dealer-seat]");
    if (!seats.length) return;

    function nameOf(seat) {
      var input = form.querySelector('input[name="player_' + seat + '"]');
      return input ? input.value.trim() : "";
    }

    function refresh() {
      var moveTo = null;
      seats.forEach(function (label) {
        var name = nameOf(label.dataset.dealerSeat);
        var text = label.querySelector("[data-dealer-name]");
        text.textContent = name || text.dataset.fallback;
        var empty = !name && label.hasAttribute("data-optional");
        label.hidden = empty;
        var radio = label.querySelector("input");
        if (empty && radio.checked) moveTo = seats[0].querySelector("input");
      });
      // The chosen dealer's seat was emptied: the first seat deals instead.
      if (moveTo) moveTo.checked = true;
    }

    form.addEventListener("input", function (event) {
      if (event.target.name && event.target.name.indexOf("player_") === 0) refresh();
    });
    form.addEventListener("reset", function () { window.setTimeout(refresh, 0); });
    // A page brought back from the browser's cache keeps what was typed.
    window.addEventListener("pageshow", refresh);
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.sheet-form").forEach(setUp);
  });
})();
