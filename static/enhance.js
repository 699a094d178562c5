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
  // "N ticked." follows the ticks as they change: <span
  // data-ticked-count="form-id"> counts the form's ticked boxes and the
  // ticks it carries from before a search (hidden present-<id> fields).
  function recount() {
    document.querySelectorAll("[data-ticked-count]").forEach(function (count) {
      var form = count.getAttribute("data-ticked-count");
      var ticked = document.querySelectorAll(
        'input[type=checkbox][form="' + form + '"]:checked, #' + form + ' input[type=hidden][name^="present-"]'
      ).length;
      count.textContent = ticked > 0 ? " " + ticked + " ticked." : "";
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("input[type=checkbox]")) { recount(); }
  });
  // "Tick all shown" ticks, at once and without a page load, the boxes of
  // the items the filter left visible: <button data-tick-shown="list-id">.
  document.querySelectorAll("button[data-tick-shown]").forEach(function (button) {
    var list = document.getElementById(button.getAttribute("data-tick-shown"));
    if (!list) { return; }
    button.addEventListener("click", function (event) {
      event.preventDefault();
      list.querySelectorAll("[data-search]").forEach(function (item) {
        if (item.hidden) { return; }
        item.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = true; });
      });
      recount();
    });
  });
})();
// The projector's round clock counts down between the page's refreshes:
// <p data-countdown="seconds left when the page was made">.
(function () {
  "use strict";
  var clock = document.querySelector("[data-countdown]");
  if (!clock) { return; }
  var end = Date.now() + Number(clock.getAttribute("data-countdown")) * 1000;
  function show() {
    var left = Math.round((end - Date.now()) / 1000);
    if (left <= 0) {
      clock.textContent = "time is up";
      return;
    }
    var seconds = left % 60;
    clock.textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
    window.setTimeout(show, 1000);
  }
  show();
})();
