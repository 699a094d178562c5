// Progressive enhancement for the game page: the forms work without it.
// Clicking the table fills the x and y of the point forms, and a deck cut
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
