// The printed lists (the Skat Spielliste): the "Print" button opens the browser's own
// print dialog. It is hidden until this script runs, since without a script the page
// tells the reader to use the browser's print command instead.
(function () {
  "use strict";

  function ready() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        window.print();
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
