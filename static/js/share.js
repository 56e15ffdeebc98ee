// Sharing a sheet (issue 9): besides the QR codes, "Copy link" (with a visible "Copied",
// or the link selected where the clipboard cannot be written) and "Share…", the phone's
// own share sheet, shown only where the browser has one. Words come from the share
// panel's data- attributes (templates/games/_share.html).
(function () {
  "use strict";

  const timers = new WeakMap();

  function say(button, text) {
    const out = button.parentElement.querySelector(".share-feedback");
    if (!out) return;
    out.textContent = text;
    window.clearTimeout(timers.get(out));
    timers.set(
      out,
      window.setTimeout(function () {
        out.textContent = "";
      }, 4000)
    );
  }

  function select(link) {
    const range = document.createRange();
    range.selectNodeContents(link);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyBySelection(link) {
    select(link);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copy(button) {
    const panel = button.closest(".share");
    const link = document.getElementById(button.dataset.copy);
    if (!panel || !link) return;
    const done = () => say(button, panel.dataset.copied);
    const fallback = function () {
      if (copyBySelection(link)) done();
      else say(button, panel.dataset.selected);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.href).then(done, fallback);
    } else {
      fallback();
    }
  }

  function share(button) {
    const panel = button.closest(".share");
    const link = document.getElementById(button.dataset.share);
    if (!panel || !link || !navigator.share) return;
    navigator
      .share({ title: panel.dataset.shareTitle, text: button.dataset.shareText, url: link.href })
      .catch(function () {
        // Closed without sharing: nothing to say.
      });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest(".share button");
    if (!button) return;
    if (button.dataset.copy) copy(button);
    else if (button.dataset.share) share(button);
  });

  function init() {
    const can = typeof navigator.share === "function";
    document.querySelectorAll(".share [data-share]").forEach(function (button) {
      button.hidden = !can;
    });
  }

  document.addEventListener("htmx:afterSettle", init);
  init();
})();
