// The game page's script: progressive enhancement over forms that work
// without it (docs/play.md). It
// - keeps the page live: when the game's stream says it moved on, or a
//   choice is sent, it fetches the page again and swaps the game in place
//   (one rendering path, the server's; no page load per decision);
// - makes the table the input: drag a model or click points to lay a path,
//   click where a model is placed, with a ruler and the engine's verdict
//   (the preview endpoint asks the rules, which change nothing) before
//   anything is sent;
// - shows a model's stat card on a click, and the choices that name it;
// - says whose move it is in the title and the icon (and a sound, if
//   asked), counts the clocks down, zooms and pans the table, and takes
//   keyboard shortcuts.
(function () {
  "use strict";
  var root = document.getElementById("game");
  if (!root || !window.fetch || !window.DOMParser) return;

  // How many full page loads this tab made (the browser tests count them).
  try {
    var loads = Number(sessionStorage.getItem("soulstone.loads") || "0") + 1;
    sessionStorage.setItem("soulstone.loads", String(loads));
  } catch (e) { /* private mode: nothing to count */ }
  document.documentElement.setAttribute("data-swaps", "0");

  var POINT_KINDS = ["deploy", "walk", "charge", "move", "place", "drop_blast", "summon", "scheme_marker", "plant_explosives"];
  var PATH_KINDS = ["walk", "move"];
  var SVGNS = "http://www.w3.org/2000/svg";

  var ui = {
    viewBox: null,      // the table's zoom and pan, kept across swaps
    selected: null,     // the model whose card is shown
    mode: null,         // the point form the table feeds (its kind)
    picked: false,      // whether the player chose that form
    path: [],           // waypoints laid so far, in table inches
    pointer: null,      // the point under a drag, not yet laid
    verdict: null,      // the last preview's answer for the path shown
    busy: false,        // a choice is on its way
    carried: null,      // a model dropped before its activation: where to
    wasMyMove: false,
    swaps: 0
  };

  function $(selector, scope) { return (scope || root).querySelector(selector); }
  function $all(selector, scope) { return Array.prototype.slice.call((scope || root).querySelectorAll(selector)); }
  function inches(n) { return (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, ""); }
  function svg() { return $("[data-board] svg"); }
  function tableSize() { return Number(root.getAttribute("data-table")) || 36; }

  // ---- Swapping the game in place -------------------------------------

  // `answer`: the reply to the player's own choice, swapped in even when
  // the version did not move (a refusal's message). A refresh swaps only a
  // newer game: an answer fetched before a choice's reply must not undo it.
  function swapFrom(html, answer) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.getElementById("game");
    if (!next) return false;
    var shown = Number(root.getAttribute("data-version")), coming = Number(next.getAttribute("data-version"));
    if (coming < shown || (!answer && coming === shown && next.getAttribute("data-status") === root.getAttribute("data-status"))) return true;
    var side = $(".game-side");
    // The side keeps its scroll, unless a new decision waits for the
    // player: then its top, where the decision is, is shown.
    var scroll = side ? side.scrollTop : 0;
    if (next.getAttribute("data-your-move") === "yes" && next.getAttribute("data-version") !== root.getAttribute("data-version")) scroll = 0;
    var openDetails = $all("details[data-keep-open], .legend").map(function (d) { return d.open; });
    root.parentNode.replaceChild(next, root);
    root = next;
    // The flash messages and the title come with the page.
    var main = document.querySelector("main");
    Array.prototype.slice.call(main.querySelectorAll(":scope > .flash")).forEach(function (f) { f.remove(); });
    Array.prototype.slice.call(doc.querySelectorAll("main > .flash")).reverse().forEach(function (f) {
      main.insertBefore(document.importNode(f, true), main.firstChild);
    });
    document.title = doc.title;
    var newSide = $(".game-side");
    if (newSide) newSide.scrollTop = scroll;
    $all(".legend").forEach(function (d, i) { if (openDetails[i] === false) d.open = false; });
    ui.swaps += 1;
    document.documentElement.setAttribute("data-swaps", String(ui.swaps));
    bind();
    return true;
  }

  var refreshing = false, again = false;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(window.location.pathname + window.location.search, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) { swapFrom(html, false); })
      .catch(function () { live("The game has moved on. Reload the page to see it."); })
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }

  function live(text) { var p = $("[data-live]"); if (p) p.textContent = text; }

  // A choice sent without leaving the page: the answer is the game page
  // (the server redirects there), swapped in.
  function send(form) {
    if (ui.busy) return;
    ui.busy = true;
    root.classList.add("sending");
    countKind(form.getAttribute("data-kind"));
    var body = new URLSearchParams(new FormData(form));
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) {
        if (!r.ok && r.status !== 409) throw new Error("status " + r.status);
        return r.text();
      })
      .then(function (html) {
        ui.busy = false;
        clearPath();
        if (!swapFrom(html, true)) throw new Error("no game in the answer");
        carryOn();
      })
      .catch(function () {
        ui.busy = false;
        // Whatever went wrong, the form still works the old way.
        form.submit();
      });
  }

  // The point form a new decision starts with: the kind of point or move
  // this player has sent most often in this game (a crew that charges a
  // lot starts each activation ready to charge), else the first.
  function kindCounts() {
    try { return JSON.parse(sessionStorage.getItem("soulstone.kinds." + root.getAttribute("data-game")) || "{}"); } catch (e) { return {}; }
  }
  function countKind(kind) {
    if (pointForms().every(function (f) { return f.getAttribute("data-kind") !== kind; })) return;
    var counts = kindCounts();
    counts[kind] = (counts[kind] || 0) + 1;
    try { sessionStorage.setItem("soulstone.kinds." + root.getAttribute("data-game"), JSON.stringify(counts)); } catch (e) { /* private mode */ }
  }
  function favourite(forms) {
    var counts = kindCounts();
    var best = forms[0];
    forms.forEach(function (f) { if ((counts[f.getAttribute("data-kind")] || 0) > (counts[best.getAttribute("data-kind")] || 0)) best = f; });
    return best;
  }

  // ---- The table as input ---------------------------------------------

  function toTable(event) {
    var board = svg();
    var point = board.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    var local = point.matrixTransform(board.getScreenCTM().inverse());
    return { x: local.x, y: tableSize() - local.y };
  }

  function modelAt(id) {
    return $('[data-board] [data-model="' + id + '"]');
  }

  // The model whose base holds a point on the table, the nearest centre
  // first: what is drawn over a base (a neighbour's health bar) does not
  // hide the model under it.
  function baseUnder(point) {
    var best = null, nearest = Infinity;
    $all("[data-board] [data-model]").forEach(function (el) {
      var m = modelData(el);
      var distance = Math.hypot(point.x - m.x, point.y - m.y);
      if (distance <= m.r + 0.05 && distance < nearest) { best = el; nearest = distance; }
    });
    return best;
  }

  function modelData(el) {
    return {
      id: el.getAttribute("data-model"),
      x: Number(el.getAttribute("data-x")),
      y: Number(el.getAttribute("data-y")),
      r: Number(el.getAttribute("data-r")),
      owner: el.getAttribute("data-owner")
    };
  }

  function pointForms() {
    return $all(".choices form[data-kind]").filter(function (f) {
      return POINT_KINDS.indexOf(f.getAttribute("data-kind")) !== -1;
    });
  }

  function activeForm() {
    var forms = pointForms();
    if (!forms.length) return null;
    var chosen = forms.filter(function (f) { return f.getAttribute("data-kind") === ui.mode; })[0];
    return chosen || forms[0];
  }

  function mover(form) {
    var id = form && form.getAttribute("data-mover");
    if (form && form.getAttribute("data-kind") === "deploy") {
      var select = $("[data-deploy-model]", form);
      id = select ? select.value : null;
    }
    return id ? modelAt(id) : null;
  }

  function moverRadius(form) {
    var el = mover(form);
    if (el) return Number(el.getAttribute("data-r"));
    return 0.59;
  }

  function start(form) {
    var el = mover(form);
    if (!el || form.getAttribute("data-kind") === "deploy") return null;
    var d = modelData(el);
    return { x: d.x, y: d.y };
  }

  // `picked`: the player chose this form (its legend), rather than it
  // being the decision's first.
  function setMode(form, picked) {
    ui.mode = form ? form.getAttribute("data-kind") : null;
    ui.picked = !!picked;
    pointForms().forEach(function (f) { f.classList.toggle("active", f === form); });
    clearPath();
    drawReach(form);
  }

  function clearPath() {
    ui.path = []; ui.pointer = null; ui.verdict = null;
    draw();
    ruler("", null);
  }

  function ruler(text, legal) {
    var p = $("[data-ruler]");
    if (!p) return;
    p.textContent = text;
    p.classList.toggle("legal", legal === true);
    p.classList.toggle("refused", legal === false);
  }

  function el(name, attrs) {
    var node = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  // The charge's reach, the move's or placement's allowance: a ring.
  function drawReach(form) {
    var layer = $("[data-board] [data-overlay]");
    if (!layer) return;
    $all(".reach", layer).forEach(function (n) { n.remove(); });
    if (!form) return;
    var kind = form.getAttribute("data-kind");
    var size = tableSize();
    var around = form.getAttribute("data-touching") && kind !== "plant_explosives" ? modelAt(form.getAttribute("data-touching")) : mover(form);
    var reach = Number(form.getAttribute("data-inches") || "0");
    if (!around || (kind !== "charge" && kind !== "place" && kind !== "move" && kind !== "summon" && kind !== "scheme_marker")) return;
    var d = modelData(around);
    var r = form.getAttribute("data-touching") ? d.r + moverRadius(form) : d.r + reach;
    if (kind === "scheme_marker") r = d.r + reach + 0.59;
    layer.insertBefore(el("circle", { "class": "reach", cx: d.x, cy: size - d.y, r: r }), layer.firstChild);
  }

  function pathPoints() {
    var pts = ui.path.slice();
    if (ui.pointer) pts.push(ui.pointer);
    return pts;
  }

  function draw() {
    var layer = $("[data-board] [data-overlay]");
    if (!layer) return;
    $all(".path, .waypoint, .ghost", layer).forEach(function (n) { n.remove(); });
    var form = activeForm();
    var pts = pathPoints();
    if (!form || !pts.length) return;
    var size = tableSize();
    var from = start(form);
    var all = from ? [from].concat(pts) : pts;
    var state = ui.verdict === null ? "waiting" : (ui.verdict.legal ? "" : "refused");
    if (all.length > 1) {
      layer.appendChild(el("polyline", {
        "class": "path " + state,
        points: all.map(function (p) { return p.x.toFixed(3) + "," + (size - p.y).toFixed(3); }).join(" ")
      }));
    }
    pts.forEach(function (p, i) {
      if (i < pts.length - 1) layer.appendChild(el("circle", { "class": "waypoint", cx: p.x, cy: size - p.y, r: 0.18 }));
    });
    var end = pts[pts.length - 1];
    layer.appendChild(el("circle", { "class": "ghost " + state, cx: end.x, cy: size - end.y, r: moverRadius(form) }));
  }

  function length(form) {
    var from = start(form);
    var pts = pathPoints();
    var total = 0;
    var last = from || pts[0];
    pts.forEach(function (p) { total += Math.hypot(p.x - last.x, p.y - last.y); last = p; });
    return total;
  }

  // Writes the path into the form: the end point in x and y, the points
  // before it in via.
  function fill(form) {
    var pts = pathPoints();
    if (!pts.length) return false;
    var end = pts[pts.length - 1];
    var x = $("[data-board-x]", form), y = $("[data-board-y]", form), via = $("[data-board-via]", form);
    if (x) x.value = end.x.toFixed(3);
    if (y) y.value = end.y.toFixed(3);
    if (via) via.value = pts.slice(0, -1).map(function (p) { return p.x.toFixed(3) + "," + p.y.toFixed(3); }).join(";");
    return true;
  }

  var previewTimer = null, previewSeq = 0;
  // Asks the rules about the path or point shown; `then` gets the answer.
  function preview(form, then) {
    if (!fill(form)) return;
    var seq = ++previewSeq;
    var body = new URLSearchParams(new FormData(form));
    var kind = form.getAttribute("data-kind");
    var allowance = Number(form.getAttribute("data-inches") || "0");
    var measured = length(form);
    fetch("/games/" + root.getAttribute("data-game") + "/preview", { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (seq !== previewSeq) return;
        ui.verdict = answer;
        draw();
        var words = "";
        if (answer.path) {
          var left = answer.path.allowance - answer.path.cost;
          words = inches(answer.path.cost) + "\" of " + inches(answer.path.allowance) + "\"" + (left >= 0 ? " (" + inches(left) + "\" left)" : "");
          if (answer.path.cost > answer.path.length + 0.05) words += ", severe terrain or climbing included";
        } else if (PATH_KINDS.indexOf(kind) !== -1 || kind === "charge") {
          words = inches(measured) + "\"" + (allowance ? " of " + allowance + "\"" : "");
        }
        if (answer.legal) {
          ruler((words ? words + ": " : "") + "allowed" + (ui.pointer ? "" : " (Enter sends it)"), true);
        } else {
          ruler((words ? words + ": " : "") + "not allowed: " + (answer.reason || ""), false);
          if (answer.stale) refresh();
        }
        if (then) then(answer);
      })
      .catch(function () { ruler("", null); });
  }

  function previewSoon(form) {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(function () { preview(form); }, 120);
  }

  // A point where a base of the mover's radius touches `target`, on the
  // line from `from` toward it: dropping onto a model means base contact.
  var MARKER_RADIUS = 0.591; // a 30 mm marker
  function contactPoint(from, target, radius) {
    var dx = from.x - target.x, dy = from.y - target.y;
    var d = Math.hypot(dx, dy) || 1;
    var gap = target.r + radius + 0.005;
    return { x: target.x + dx / d * gap, y: target.y + dy / d * gap };
  }

  function snapped(form, point, targetEl) {
    if (!targetEl) return point;
    var target = modelData(targetEl);
    var own = mover(form);
    if (own && own.getAttribute("data-model") === target.id) return point;
    var from = pathPoints().length ? ui.path[ui.path.length - 1] || start(form) : start(form);
    return contactPoint(from || point, target, moverRadius(form));
  }

  // Lays a point; a form that takes one point sends it once the rules
  // agree, a path waits for more (Enter, or a click on its last point).
  function lay(form, point, sendIfLegal) {
    var kind = form.getAttribute("data-kind");
    if (PATH_KINDS.indexOf(kind) === -1) ui.path = [];
    ui.path.push(point);
    ui.pointer = null;
    ui.verdict = null;
    draw();
    preview(form, function (answer) {
      if (answer.legal && (sendIfLegal || PATH_KINDS.indexOf(kind) === -1)) { send(form); return; }
      // Dropped a little beyond the allowance: it goes as far as it may,
      // as a hand stops at the end of the tape.
      if (sendIfLegal && !answer.legal && shortened(form, answer)) {
        preview(form, function (again) { if (again.legal) send(form); });
      }
    });
  }

  // Pulls the path's end back along its last leg by what the path is over
  // its allowance, when length alone is the trouble (no terrain counted
  // twice, no climb) and the leg is long enough; whether it did.
  function shortened(form, answer) {
    var p = answer.path;
    if (!p || p.cost <= p.allowance || p.cost > p.length + 0.05) return false;
    var over = p.cost - p.allowance + 0.02;
    var end = ui.path[ui.path.length - 1];
    var before = ui.path.length > 1 ? ui.path[ui.path.length - 2] : start(form);
    if (!end || !before) return false;
    var leg = Math.hypot(end.x - before.x, end.y - before.y);
    if (leg <= over + 0.1 || over > 1.5) return false;
    var keep = (leg - over) / leg;
    ui.path[ui.path.length - 1] = { x: before.x + (end.x - before.x) * keep, y: before.y + (end.y - before.y) * keep };
    ui.verdict = null;
    draw();
    // Not a refusal yet: the rules are asked again about the shorter path.
    ruler(inches(p.allowance) + "\" of " + inches(p.allowance) + "\": as far as it may go", null);
    return true;
  }

  function commit() {
    var form = activeForm();
    if (!form || !ui.path.length) return;
    preview(form, function (answer) { if (answer.legal) send(form); });
  }

  // ---- Models: cards, choices, drags -----------------------------------

  function showCard(id) {
    ui.selected = id;
    $all("[data-board] .model").forEach(function (m) { m.classList.toggle("selected", m.getAttribute("data-model") === id); });
    var slot = $("[data-selected]");
    var card = root.querySelector("#card-" + id);
    if (!slot) return;
    slot.innerHTML = "";
    if (card) {
      var copy = card.cloneNode(true);
      copy.removeAttribute("id");
      slot.appendChild(copy);
      slot.hidden = false;
    } else {
      slot.hidden = true;
    }
  }

  function closePopover() {
    var pop = document.querySelector(".popover");
    if (pop) pop.remove();
  }

  // The choices naming a model, beside it: one click each.
  function popover(modelEl, forms) {
    closePopover();
    var d = modelData(modelEl);
    var pop = document.createElement("div");
    pop.className = "popover";
    pop.setAttribute("role", "menu");
    var title = document.createElement("p");
    title.textContent = modelEl.getAttribute("data-name");
    pop.appendChild(title);
    forms.forEach(function (form) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "menuitem");
      b.textContent = (form.querySelector("button") || form).textContent.replace(/^\s*\d\s+/, "").trim();
      b.addEventListener("click", function () { closePopover(); send(form); });
      pop.appendChild(b);
    });
    var board = $("[data-board]");
    board.appendChild(pop);
    var rect = svg().getBoundingClientRect();
    var scale = rect.width / currentViewBox()[2];
    var vb = currentViewBox();
    var left = (d.x - vb[0]) * scale + 12, top = (tableSize() - d.y - vb[1]) * scale + 12;
    left = Math.max(0, Math.min(left, rect.width - pop.offsetWidth));
    top = Math.max(0, Math.min(top, rect.height - pop.offsetHeight));
    pop.style.left = left + "px";
    pop.style.top = top + "px";
    var first = pop.querySelector("button");
    if (first) first.focus();
  }

  function formsNaming(id) {
    return $all(".choices form[data-piece]").filter(function (f) {
      return f.getAttribute("data-piece") === id && f.getAttribute("data-kind") === "command";
    });
  }

  function onModelClick(modelEl, event) {
    var id = modelEl.getAttribute("data-model");
    var form = activeForm();
    showCard(id);
    var naming = formsNaming(id);
    $all(".choices form").forEach(function (f) { f.classList.toggle("picked", naming.indexOf(f) !== -1); });
    if (naming.length) {
      // One's own model to activate: picking it up is the choice.
      var only = naming.length === 1 ? naming[0] : null;
      var command = only ? only.querySelector('input[name="command"]').value : "";
      if (only && /"type":"(activate|chain_activate)"/.test(command)) { send(only); return; }
      popover(modelEl, naming);
      return;
    }
    // Laying a path: a click on another model is a waypoint touching it
    // (nothing is sent until the path is).
    var own = form ? mover(form) : null;
    if (form && PATH_KINDS.indexOf(form.getAttribute("data-kind")) !== -1 && own && own !== modelEl) {
      ui.path.push(snapped(form, toTable(event), modelEl));
      ui.verdict = null;
      draw();
      preview(form);
    }
  }

  // The Activate form of one's own model, when activating it is the one
  // choice naming it: then picking the model up activates it.
  function activationOf(modelEl) {
    if (!modelEl || modelEl.getAttribute("data-owner") !== root.getAttribute("data-you")) return null;
    var naming = formsNaming(modelEl.getAttribute("data-model"));
    if (naming.length !== 1) return null;
    var command = naming[0].querySelector('input[name="command"]');
    return command && /"type":"activate"/.test(command.value) ? naming[0] : null;
  }

  // A model picked up before its activation: a line to where it would
  // go (base contact, held over an enemy), its length against its speed.
  // Nothing is asked of the rules until it is activated: then the walk or
  // charge is laid and previewed like any other.
  function carry(d, point) {
    var m = modelData(d.model);
    var target = baseUnder(point);
    if (target === d.model) target = null;
    var enemy = target && target.getAttribute("data-owner") !== root.getAttribute("data-you") ? target : null;
    var end = enemy ? contactPoint({ x: m.x, y: m.y }, modelData(enemy), m.r) : point;
    // Put back where it stood: nothing happens.
    if (!enemy && Math.hypot(end.x - m.x, end.y - m.y) < m.r) {
      d.carried = null;
      $all(".path, .waypoint, .ghost", $("[data-board] [data-overlay]") || root).forEach(function (n) { n.remove(); });
      ruler("", null);
      return;
    }
    d.carried = { model: m.id, end: end, onto: enemy ? enemy.getAttribute("data-model") : null };
    var layer = $("[data-board] [data-overlay]");
    if (!layer) return;
    $all(".path, .waypoint, .ghost", layer).forEach(function (n) { n.remove(); });
    var size = tableSize();
    layer.appendChild(el("polyline", { "class": "path waiting", points: m.x.toFixed(3) + "," + (size - m.y).toFixed(3) + " " + end.x.toFixed(3) + "," + (size - end.y).toFixed(3) }));
    layer.appendChild(el("circle", { "class": "ghost waiting", cx: end.x, cy: size - end.y, r: m.r }));
    var speed = Number(d.model.getAttribute("data-speed") || "0");
    ruler(inches(Math.hypot(end.x - m.x, end.y - m.y)) + "\"" + (speed ? " (speed " + speed + "\")" : "") + (enemy ? ": charge " + enemy.getAttribute("data-name") : "") + ": drop to activate and move", null);
  }

  // After the activation a carry started: the walk (or the charge, if it
  // was dropped on an enemy) is laid to the drop point and sent if the
  // rules agree; if not, it stays on the table with the reason.
  function carryOn() {
    var carried = ui.carried;
    ui.carried = null;
    if (!carried) return;
    var kind = carried.onto ? "charge" : "walk";
    var form = pointForms().filter(function (f) {
      return f.getAttribute("data-kind") === kind && f.getAttribute("data-mover") === carried.model;
    })[0];
    if (!form) { ruler("Activated. Choose what it does.", null); return; }
    setMode(form, true);
    var end = carried.onto && modelAt(carried.onto) ? snapped(form, carried.end, modelAt(carried.onto)) : carried.end;
    ui.path = [end];
    draw();
    function refused() {
      // The reason stays in the ruler; the next drag starts a new path.
      ui.path = []; ui.verdict = null;
      draw();
    }
    preview(form, function (answer) {
      if (answer.legal) { send(form); return; }
      if (!shortened(form, answer)) { refused(); return; }
      preview(form, function (again) { if (again.legal) send(form); else refused(); });
    });
  }

  var drag = null;
  function onPointerDown(event) {
    var board = svg();
    if (!board || event.button > 0) return;
    closePopover();
    var modelEl = baseUnder(toTable(event)) || (event.target.closest ? event.target.closest("[data-model]") : null);
    var form = activeForm();
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false, model: modelEl, form: form, pan: null };
    var own = form ? mover(form) : null;
    drag.dragsMover = !!(own && modelEl && own === modelEl && form.getAttribute("data-kind") !== "deploy");
    drag.activates = drag.dragsMover ? null : activationOf(modelEl);
    // Picking the model up again after a refused path starts a new one
    // (the refused end is not a waypoint to carry on from).
    if (drag.dragsMover && ui.verdict && !ui.verdict.legal) {
      ui.path = []; ui.verdict = null;
      draw();
    }
    board.setPointerCapture(event.pointerId);
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    if (Object.keys(pointers).length === 2) { drag.pinch = pinchState(); }
    event.preventDefault();
  }

  function onPointerMove(event) {
    if (pointers[event.pointerId]) pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    if (!drag || drag.id !== event.pointerId && !drag.pinch) return;
    if (drag.pinch && Object.keys(pointers).length === 2) { pinchMove(); return; }
    var moved = Math.hypot(event.clientX - drag.x, event.clientY - drag.y);
    if (moved > 6) drag.moved = true;
    if (!drag.moved) return;
    if (drag.activates) {
      carry(drag, toTable(event));
    } else if (drag.dragsMover) {
      var point = toTable(event);
      var under = document.elementFromPoint(event.clientX, event.clientY);
      var target = under && under.closest ? under.closest("[data-model]") : null;
      drag.target = target && target !== drag.model ? target : null;
      ui.pointer = snapped(drag.form, point, drag.target);
      ui.verdict = null;
      draw();
      var kind = drag.form.getAttribute("data-kind");
      var allowance = Number(drag.form.getAttribute("data-inches") || "0");
      var used = length(drag.form);
      ruler(inches(used) + "\"" + (allowance ? " of " + allowance + "\" (" + inches(Math.max(0, allowance - used)) + "\" left)" : ""), allowance ? used <= allowance + 0.01 : null);
      if (kind) previewSoon(drag.form);
    } else if (isZoomed()) {
      pan(event.clientX - drag.x, event.clientY - drag.y);
      drag.x = event.clientX; drag.y = event.clientY;
    }
  }

  function onPointerUp(event) {
    delete pointers[event.pointerId];
    if (!drag || drag.id !== event.pointerId) { if (drag && drag.pinch) drag = null; return; }
    var d = drag;
    drag = null;
    if (d.pinch) return;
    if (d.activates && d.moved && d.carried) {
      // Only with the activation it belongs to: a carry left behind would
      // move a model after some later choice.
      if (ui.busy) return;
      ui.carried = d.carried;
      send(d.activates);
      return;
    }
    if (d.dragsMover && d.moved && ui.pointer) {
      // Dropped: the path ends here, and goes if the rules agree. Dropped
      // on an enemy, unless another move was picked, it is a Charge.
      var end = ui.pointer;
      ui.pointer = null;
      var form = d.form;
      var charge = $all(".choices form[data-kind=charge]")[0];
      var enemy = d.target && d.target.getAttribute("data-owner") !== root.getAttribute("data-you");
      if (charge && enemy && form !== charge && !ui.picked) {
        form = charge;
        setMode(charge);
        end = snapped(charge, end, d.target);
      }
      lay(form, end, true);
      return;
    }
    if (d.moved) return;
    var point = toTable(event);
    // A click on a model's base is on the model; on its label or health
    // bar beside the base, it is on the table there.
    if (d.model) {
      var m = modelData(d.model);
      if (Math.hypot(point.x - m.x, point.y - m.y) <= m.r + 0.05 || !d.form) { onModelClick(d.model, event); return; }
    }
    var form = d.form;
    if (!form) return;
    // A marker made in base contact (3rd edition): a click near the model
    // is put against its base (touching, a hair under it, as the rules allow).
    var touching = form.getAttribute("data-touching");
    if (touching && form.getAttribute("data-kind") === "scheme_marker" && modelAt(touching)) {
      var t = modelData(modelAt(touching));
      var far = Math.hypot(point.x - t.x, point.y - t.y);
      if (far < t.r + 2) point = contactPoint(point, t, MARKER_RADIUS - 0.007);
    }
    var size = tableSize();
    if (point.x < 0 || point.y < 0 || point.x > size || point.y > size) return;
    // A click on the path's last point sends it.
    var last = ui.path[ui.path.length - 1];
    if (last && Math.hypot(last.x - point.x, last.y - point.y) < 0.5) { commit(); return; }
    lay(form, point, false);
  }

  // ---- Zoom and pan ----------------------------------------------------

  var pointers = {};
  function currentViewBox() {
    var board = svg();
    var vb = board.getAttribute("viewBox").split(/\s+/).map(Number);
    return vb;
  }
  function setViewBox(vb) {
    var size = tableSize();
    var w = Math.max(6, Math.min(size, vb[2]));
    var x = Math.max(0, Math.min(size - w, vb[0]));
    var y = Math.max(0, Math.min(size - w, vb[1]));
    ui.viewBox = [x, y, w, w];
    svg().setAttribute("viewBox", ui.viewBox.join(" "));
  }
  function isZoomed() { return currentViewBox()[2] < tableSize() - 0.01; }
  function zoom(factor, cx, cy) {
    var vb = currentViewBox();
    var w = vb[2] / factor;
    if (cx === undefined) { cx = vb[0] + vb[2] / 2; cy = vb[1] + vb[3] / 2; }
    setViewBox([cx - (cx - vb[0]) / factor, cy - (cy - vb[1]) / factor, w, w]);
  }
  function pan(dx, dy) {
    var vb = currentViewBox();
    var rect = svg().getBoundingClientRect();
    var per = vb[2] / rect.width;
    setViewBox([vb[0] - dx * per, vb[1] - dy * per, vb[2], vb[3]]);
  }
  function pinchState() {
    var p = Object.keys(pointers).map(function (k) { return pointers[k]; });
    return { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), cx: (p[0].x + p[1].x) / 2, cy: (p[0].y + p[1].y) / 2 };
  }
  function pinchMove() {
    var now = pinchState();
    var before = drag.pinch;
    if (before.d > 0 && now.d > 0) {
      var board = svg();
      var point = board.createSVGPoint();
      point.x = now.cx; point.y = now.cy;
      var local = point.matrixTransform(board.getScreenCTM().inverse());
      zoom(now.d / before.d, local.x, local.y);
      pan(now.cx - before.cx, now.cy - before.cy);
    }
    drag.pinch = now;
  }

  // ---- Whose move, clocks, sound ----------------------------------------

  var plainIcon = null;
  function whoseMove() {
    var mine = root.getAttribute("data-your-move") === "yes";
    var icon = document.querySelector('link[rel="icon"]');
    if (icon) {
      if (plainIcon === null) plainIcon = icon.getAttribute("href");
      icon.setAttribute("href", mine
        ? "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 28 12 16 30 4 12Z" fill="#6b2fa0"/><circle cx="24" cy="8" r="7" fill="#f2b400" stroke="#fff" stroke-width="2"/></svg>')
        : plainIcon);
    }
    if (mine && !ui.wasMyMove && soundOn()) beep();
    ui.wasMyMove = mine;
  }

  function soundOn() { try { return localStorage.getItem("soulstone.sound") === "on"; } catch (e) { return false; } }
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var ctx = new Context();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.18);
    } catch (e) { /* no sound: nothing lost */ }
  }

  setInterval(function () {
    $all("[data-clock-ms]").forEach(function (clock) {
      if (clock.getAttribute("data-running") !== "yes") return;
      var ms = Math.max(0, Number(clock.getAttribute("data-clock-ms")) - 1000);
      clock.setAttribute("data-clock-ms", String(ms));
      var s = Math.floor(ms / 1000);
      clock.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2) + " (running)";
    });
  }, 1000);

  // ---- Binding, after every swap ----------------------------------------

  function bind() {
    root.classList.add("scripted");
    var tools = $("[data-tools]");
    if (tools) tools.hidden = false;
    var keys = $("[data-keys]");
    if (keys) keys.hidden = false;
    var sound = $("[data-sound-setting]");
    if (sound) {
      sound.hidden = false;
      var box = $("[data-sound]", sound);
      box.checked = soundOn();
      box.addEventListener("change", function () {
        try { localStorage.setItem("soulstone.sound", box.checked ? "on" : "off"); } catch (e) { /* ignore */ }
      });
    }
    var board = svg();
    if (board) {
      if (ui.viewBox) board.setAttribute("viewBox", ui.viewBox.join(" "));
      board.addEventListener("pointerdown", onPointerDown);
      board.addEventListener("pointermove", onPointerMove);
      board.addEventListener("pointerup", onPointerUp);
      board.addEventListener("pointercancel", function (e) { delete pointers[e.pointerId]; drag = null; });
      board.addEventListener("wheel", function (e) {
        e.preventDefault();
        var p = board.createSVGPoint(); p.x = e.clientX; p.y = e.clientY;
        var local = p.matrixTransform(board.getScreenCTM().inverse());
        zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, local.x, local.y);
      }, { passive: false });
      // A model reached by the keyboard: Enter or Space picks it.
      $all("[data-model]", board).forEach(function (m) {
        m.addEventListener("click", function (e) { e.preventDefault(); });
        m.addEventListener("keydown", function (e) {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            var box = m.getBoundingClientRect();
            onModelClick(m, { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 });
          }
        });
      });
    }
    $all("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var how = b.getAttribute("data-zoom");
        if (how === "in") zoom(1.5); else if (how === "out") zoom(1 / 1.5); else setViewBox([0, 0, tableSize(), tableSize()]);
      });
    });
    $all("[data-select]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        var id = a.getAttribute("data-select");
        if (!modelAt(id)) return;
        e.preventDefault();
        showCard(id);
      });
    });
    // Point forms: the first feeds the table; a click on another's legend
    // makes it the one.
    var forms = pointForms();
    forms.forEach(function (form) {
      var legend = form.querySelector("legend");
      if (legend) {
        legend.setAttribute("tabindex", "0");
        legend.setAttribute("role", "button");
        legend.addEventListener("click", function () { setMode(form, true); });
        legend.addEventListener("keydown", function (e) { if (e.key === "Enter") setMode(form, true); });
      }
      var select = $("[data-deploy-model]", form);
      if (select) select.addEventListener("change", function () { clearPath(); });
    });
    var keep = forms.filter(function (f) { return f.getAttribute("data-kind") === ui.mode; })[0];
    setMode(keep || favourite(forms) || null, keep ? ui.picked : false);
    // Random words for a deck cut the player left empty.
    $all("[data-random-cut]").forEach(function (input) {
      if (!input.value && window.crypto && window.crypto.getRandomValues) {
        var bytes = new Uint8Array(16);
        window.crypto.getRandomValues(bytes);
        input.value = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      }
    });
    if (ui.selected && modelAt(ui.selected)) showCard(ui.selected);
    whoseMove();
  }

  // Choices go without leaving the page (a form of the decision, or the
  // setting beside it).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!root.contains(form) || !form.matches(".choices form, form.settings")) return;
    event.preventDefault();
    if (form.matches(".choices form") && POINT_KINDS.indexOf(form.getAttribute("data-kind")) !== -1 && !ui.path.length) {
      // Typed coordinates, with the table folded away: send what is there.
      var x = $("[data-board-x]", form);
      if (!x || !x.value) { ruler("Click the table to choose where.", false); return; }
    }
    send(form);
  });

  document.addEventListener("keydown", function (event) {
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[1-9]$/.test(event.key)) {
      var form = $('.choices form[data-shortcut="' + event.key + '"]');
      if (form) { event.preventDefault(); send(form); }
    } else if (event.key === "Enter" && ui.path.length) {
      event.preventDefault(); commit();
    } else if (event.key === "Escape") {
      closePopover(); clearPath();
    } else if (event.key === "+" || event.key === "=") {
      zoom(1.5);
    } else if (event.key === "-") {
      zoom(1 / 1.5);
    }
  });

  // The stream: a fact means the game moved on; fetch it and swap.
  var stream = root.getAttribute("data-stream");
  if (stream && window.EventSource) {
    var source = new EventSource(stream);
    var pending = null, newest = 0;
    var shown = function () { return Number(root.getAttribute("data-version")); };
    // Fetched only if the page does not show the facts by then: the
    // answer to the player's own choice often brings them first, and a
    // second swap right after it would replace what they are about to click.
    var catchUp = function () {
      pending = null;
      if (newest <= shown()) return;
      if (ui.busy) { pending = setTimeout(catchUp, 60); return; }
      refresh();
    };
    source.addEventListener("fact", function (event) {
      var id = Number(event.lastEventId);
      // A fact the page already shows (its own choice, swapped in).
      if (id <= shown()) return;
      newest = Math.max(newest, id);
      if (!pending) pending = setTimeout(catchUp, 60);
    });
  }

  bind();
})();
