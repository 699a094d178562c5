// The Mage Knight page, live: the server says when the game moves on and
// the page loads itself again. A player filling in a form is not
// interrupted: a notice asks them to look again instead. Without scripts
// the page's "Look again" link does the same.
(function () {
  "use strict";
  var page = document.querySelector("[data-moves]");
  if (!page || !window.EventSource) return;
  var source = new EventSource(page.getAttribute("data-moves"));
  var notice = document.getElementById("mk-moved");
  function busy() {
    var active = document.activeElement;
    return active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && active.type !== "hidden";
  }
  source.addEventListener("moved", function () {
    if (busy()) {
      if (notice) notice.hidden = false;
      return;
    }
    source.close();
    window.location.reload();
  });
})();
