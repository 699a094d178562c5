// Progressive enhancement for the game page: the forms work without it.
// Clicking the table fills the x and y of the point forms, clicking a model
// picks out the choices that name it (activate it, act at it), and a deck cut
// gets random words of the browser's own if the player typed none.
(function () {
  "use strict";
  var board = document.querySelector("[data-board] svg");
  if (board) {
    board.addEventListener("click", function (event) {
      var box = board.getBoundingClientRect();
      var x = ((event.clientX - box.left) / box.width) * 36;
      var y = 36 - ((event.clientY - box.top) / box.height) * 36;
      document.querySelectorAll("[data-board-x]").forEach(function (input) { input.value = x.toFixed(1); });
      document.querySelectorAll("[data-board-y]").forEach(function (input) { input.value = y.toFixed(1); });
      // A model clicked: the choices naming it stand out, the first focused.
      var piece = event.target.getAttribute && event.target.getAttribute("data-piece");
      if (piece) {
        var first = null;
        document.querySelectorAll(".choices form[data-piece]").forEach(function (form) {
          var named = form.getAttribute("data-piece") === piece;
          form.classList.toggle("picked", named);
          if (named && !first) first = form.querySelector("button");
        });
        if (first) first.focus();
      }
    });
  }
  document.querySelectorAll("[data-random-cut]").forEach(function (input) {
    if (!input.value && window.crypto && window.crypto.getRandomValues) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      input.value = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    }
  });
})();

// Live updates: when the game moves on, the page reloads to show it,
// unless the player is part way through filling in a form, who is told
// instead. Without scripts, the Reload link does the same.
(function () {
  "use strict";
  var live = document.querySelector("[data-stream]");
  if (!live || !window.EventSource) return;
  var editing = false;
  document.querySelectorAll(".choices input, .choices select").forEach(function (field) {
    field.addEventListener("input", function () { editing = true; });
  });
  var source = new EventSource(live.getAttribute("data-stream"));
  var pending = null;
  source.addEventListener("fact", function () {
    if (pending) return;
    pending = setTimeout(function () {
      if (editing) {
        live.textContent = "The game has moved on. Reload the page to see it.";
      } else {
        source.close();
        window.location.reload();
      }
    }, 300);
  });
})();
