// The live part of a screen, kept up to date by the server (server-sent events): each frame says what changed since
// the last one (web/live.py): the screen's parts, each after a <!--p--> comment, as runs of the parts it holds and
// new parts' HTML, then the lists of the parts it kept (an element with data-kids, each child after a <!--k-->
// comment): a new opening tag (its attributes) where it changed, and its children the same way. While the channel is open a form's answer is the next frame (the form asks for no HTML);
// without it, a form's answer is the whole live part (htmx). What the user was doing survives a change: what was
// typed, picked or ticked (fields marked data-keep), which panels were open (details marked data-keep; a player's
// folds on that device also across reloads, in its local storage), which field had the focus. A tap on a mark of the
// board shows its why under the board.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }

  function save(root) {
    var state = { fields: {}, open: {}, focused: null };
    root.querySelectorAll("input[data-keep], select[data-keep]").forEach(function (i) {
      var k = i.getAttribute("data-keep");
      if (i.type === "radio") {
        if (i.checked) { state.fields[k] = i.value; }
      } else if (i.type === "checkbox") {
        state.fields[k] = i.checked ? "1" : "";
      } else if (i.value) {
        state.fields[k] = i.value;
      }
    });
    root.querySelectorAll("details[data-keep]").forEach(function (d) {
      state.open[d.getAttribute("data-keep")] = d.open;
    });
    var a = document.activeElement;
    if (a && a.getAttribute && root.contains(a)) { state.focused = a.getAttribute("data-keep"); }
    return state;
  }

  function restore(root, state) {
    root.querySelectorAll("input[data-keep], select[data-keep]").forEach(function (i) {
      var k = i.getAttribute("data-keep");
      if (!(k in state.fields)) { return; }
      if (i.type === "radio") {
        i.checked = i.value === state.fields[k];
      } else if (i.type === "checkbox") {
        i.checked = state.fields[k] === "1";
      } else {
        i.value = state.fields[k];
      }
      if (k === state.focused && i.type !== "radio") { i.focus(); }
    });
    root.querySelectorAll("details[data-keep]").forEach(function (d) {
      var k = d.getAttribute("data-keep");
      if (k in state.open) { d.open = state.open[k]; }
    });
  }

  // the folds a player opened (the board, the others, the timeline) stay open on that device, after a reload too
  function stored(key) {
    try { return window.localStorage.getItem("affray-fold:" + key); } catch (e) { return null; }
  }
  function unfold(root) {
    root.querySelectorAll("details.fold[data-keep]").forEach(function (d) {
      var was = stored(d.getAttribute("data-keep"));
      if (was !== null) { d.open = was === "1"; }
    });
  }
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.matches || !d.matches("details.fold[data-keep]")) { return; }
    try { window.localStorage.setItem("affray-fold:" + d.getAttribute("data-keep"), d.open ? "1" : "0"); } catch (x) {}
  }, true);
  unfold(live);

  // a tap (or a key press on a focused mark) shows the mark's title, its line and why, under its board
  live.addEventListener("click", function (e) {
    var mark = e.target.closest ? e.target.closest(".bd-mk, .bd-bar, .bd-col") : null;
    var board = mark ? mark.closest(".board") : null;
    if (!board) { return; }
    var title = mark.querySelector("title");
    var out = board.querySelector(".board-why");
    if (title && out) { out.textContent = title.textContent; }
  });

  var kept = null;
  var source = null;
  document.body.addEventListener("htmx:configRequest", function (e) {
    if (source && source.readyState === 1) { e.detail.headers["X-Affray-Live"] = "1"; }
  });
  document.body.addEventListener("htmx:beforeSwap", function () { kept = save(live); });
  document.body.addEventListener("htmx:afterSwap", function () {
    if (kept) { restore(live, kept); kept = null; } else { unfold(live); }
    if (source) { connect(); }  // the part was replaced whole: the channel starts again from a whole frame
  });

  function isMark(node, text) { return node.nodeType === 8 && node.data === text; }

  // el's children between marks: each group is a mark and the nodes up to the next; end is the closing mark
  function groups(el, mark, closing) {
    var out = [], cur = null, end = null;
    Array.prototype.forEach.call(el.childNodes, function (n) {
      if (end) { return; }
      if (isMark(n, mark)) { cur = [n]; out.push(cur); } else if (isMark(n, closing)) { end = n; } else if (cur) { cur.push(n); }
    });
    return { groups: out, end: end };
  }

  function parse(el, html) {
    var t = document.createElement("template");
    if (el.namespaceURI === "http://www.w3.org/2000/svg") {
      t.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg">' + html + "</svg>";
      return Array.prototype.slice.call(t.content.firstChild.childNodes);
    }
    t.innerHTML = html;
    return Array.prototype.slice.call(t.content.childNodes);
  }

  // el's children made as the edits say: [first, count] keeps those children (moved), a string is a new child
  function edit(el, mark, closing, edits) {
    var had = groups(el, mark, closing);
    var fits = edits.every(function (e) { return typeof e === "string" || e[0] + e[1] <= had.groups.length; });
    if (!had.end || !fits) { return false; }  // not the children the frame was cut against
    var out = document.createDocumentFragment(), used = {};
    edits.forEach(function (e) {
      if (typeof e === "string") {
        out.appendChild(document.createComment(mark));
        parse(el, e).forEach(function (n) { out.appendChild(n); });
        return;
      }
      for (var i = e[0]; i < e[0] + e[1]; i++) {
        var again = used[i];
        used[i] = true;
        had.groups[i].forEach(function (n) { out.appendChild(again ? n.cloneNode(true) : n); });
      }
    });
    had.groups.forEach(function (g) { g.forEach(function (n) { if (n.parentNode === el) { el.removeChild(n); } }); });
    el.insertBefore(out, had.end);
    return true;
  }

  // el's attributes made those of the opening tag given (a board panel grown), its children left as they are
  function retag(el, tag) {
    var t = document.createElement("template");
    t.innerHTML = tag + "</" + el.localName + ">";
    var made = t.content.firstElementChild;
    if (!made) { return; }
    Array.prototype.slice.call(el.attributes).forEach(function (a) {
      if (!made.hasAttribute(a.name)) { el.removeAttribute(a.name); }
    });
    Array.prototype.forEach.call(made.attributes, function (a) { el.setAttribute(a.name, a.value); });
  }

  function apply(data) {
    var screen = live.querySelector(".screen");
    if (!screen) { return false; }
    var state = save(live);
    var ok = true;
    if (data.parts) { ok = edit(screen, "p", "/p", data.parts); }
    Object.keys(data.lists).forEach(function (name) {
      var el = screen.querySelector('[data-kids="' + name + '"]');
      var tag = data.lists[name][0], kids = data.lists[name][1];
      if (!el) { ok = false; return; }
      if (tag) { retag(el, tag); }
      if (kids) { ok = edit(el, "k", "/k", kids) && ok; }
    });
    screen.setAttribute("data-rev", String(data.rev));
    live.querySelectorAll('input[name="key"]').forEach(function (i) { i.value = data.key; });
    restore(live, state);
    if (window.htmx) { window.htmx.process(screen); }
    return ok;
  }

  function connect() {
    if (source) { source.close(); }
    source = new EventSource(live.getAttribute("data-stream"));
    source.addEventListener("live", function (e) {
      if (!apply(JSON.parse(e.data))) { connect(); }  // not the screen the frame was cut for: start again
    });
  }

  // The referee's map: a token dragged and dropped is placed there, snapped to 5 ft (`place NAME X Y`, the map's
  // form). Listened for on the live part, so it holds across the screen's changes.
  var drag = null;
  function feetAt(svg, ev) {
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }
  live.addEventListener("pointerdown", function (ev) {
    var t = ev.target.closest ? ev.target.closest(".map-place .af-token[data-name]") : null;
    if (!t) { return; }
    drag = { token: t, svg: t.ownerSVGElement, x: +t.getAttribute("data-x"), y: +t.getAttribute("data-y") };
    ev.preventDefault();
  });
  live.addEventListener("pointermove", function (ev) {
    if (!drag) { return; }
    var at = feetAt(drag.svg, ev);
    drag.token.setAttribute("transform", "translate(" + (at.x - drag.x) + "," + (at.y - drag.y) + ")");
  });
  live.addEventListener("pointerup", function (ev) {
    if (!drag) { return; }
    var at = feetAt(drag.svg, ev), form = drag.svg.closest("form");
    var x = Math.round(at.x / 5) * 5, y = Math.round(at.y / 5) * 5, name = drag.token.getAttribute("data-name");
    drag = null;
    if (!form) { return; }
    form.querySelector('input[name="text"]').value = "place " + name + " " + x + " " + y;
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  });

  if (window.EventSource) { connect(); }
})();
