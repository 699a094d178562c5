// Progressive enhancement for the organisers' pages: everything works
// without it (search is a form, check-in a list of checkboxes).
(function () {
  "use strict";
  // Filters a list as the organiser types: <input data-filter="list-id">
  // hides the list's items whose data-search does not hold the text.
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("data-filter"));
    if (!list) { return; }
    input.addEventListener("input", function () {
      var text = input.value.trim().toLowerCase();
      list.querySelectorAll("[data-search]").forEach(function (item) {
        item.hidden = text !== "" && item.getAttribute("data-search").indexOf(text) === -1;
      });
    });
  });
})();
