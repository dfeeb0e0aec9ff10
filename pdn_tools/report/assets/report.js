// The HTML report's page script (pdn_tools/report/html.py inlines it).
//
// The findings arrive as data (the JSON in #pdn-data) and every game as data in
// blocks (script.pdn-chunk, after this script), each block parsed only when one of
// its games is shown.  Three views, chosen by the address's #fragment so that links
// and the back button work:
//   the list of findings (default): errors first, then warnings, then info, in file
//     order within each; a page at a time; filters by code, severity and file;
//   the games of a file (#games=F): a page of games, each opening the viewer;
//   the game viewer (#game=G&ply=P): the board after any ply, the move list with the
//     findings marked and the variations where they branch off.
// A board is a copy of the empty board of its kind (#pdn-boards, drawn by
// pdn_tools.report.svg) with the elements pdn_tools.report.svg.board_svg adds, with
// the same colours and sizes (data.style): highlights, pieces, capture marks, arrows.
// Keys: j / k next and previous finding, n / p next and previous page, o open the
// finding's game; in the viewer ArrowLeft / ArrowRight, Home / End, Escape.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("pdn-data").textContent);
  var style = data.style;
  var files = data.files;
  var findings = data.findings;
  var square = style.square;
  var half = square / 2;
  var size = data.pageSize;
  var RANK = { error: 0, warning: 1, info: 2 };
  // Errors first, then warnings, then info; file order within each (a stable sort).
  var all = findings.map(function (_, n) { return n; });
  all.sort(function (a, b) {
    return (RANK[findings[a][4]] - RANK[findings[b][4]]) || (a - b);
  });
  var position = {};
  all.forEach(function (n, k) { position[n] = k; });
  var controls = {
    code: document.getElementById("f-code"),
    sev: document.getElementById("f-sev"),
    file: document.getElementById("f-file"),
  };
  var withFindings = {};
  findings.forEach(function (f) { withFindings[f[0]] = true; });
  files.forEach(function (name, n) {
    if (!withFindings[n]) return;  // the filter offers the files that have findings
    var option = document.createElement("option");
    option.value = String(n);
    option.textContent = shorten(name, 60);
    option.title = name;
    controls.file.appendChild(option);
  });
  var list = document.getElementById("findings");
  var viewer = document.getElementById("viewer");
  var nav = document.querySelector("nav.controls");
  var status = document.getElementById("status");
  var shown = all;
  var page = 0;
  var current = -1;
  var mode = "list";
  var templates = {};
  var cells = {};

  function shorten(path, most) {
    if (path.length <= most) return path;
    var tail = Math.floor((most - 1) * 2 / 3);
    var head = most - 1 - tail;
    return path.slice(0, head) + "…" + path.slice(path.length - tail);
  }

  // -- the games, block by block ---------------------------------------------------------
  var blocks = null;
  var parsed = {};
  var parsedOrder = [];

  function gameData(g) {
    if (g < 0) return null;
    if (blocks === null || (blocks.length && g >= blocks[blocks.length - 1].last)) {
      blocks = Array.prototype.map.call(document.querySelectorAll("script.pdn-chunk"),
        function (node) { return { node: node, first: +node.getAttribute("data-first") }; });
      blocks.forEach(function (b, k) {
        b.last = k + 1 < blocks.length ? blocks[k + 1].first : data.games;
      });
    }
    var lo = 0, hi = blocks.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (g < blocks[mid].first) hi = mid - 1;
      else if (g >= blocks[mid].last) lo = mid + 1;
      else {
        if (!parsed[mid]) {
          parsed[mid] = JSON.parse(blocks[mid].node.textContent);
          parsedOrder.push(mid);
          if (parsedOrder.length > 64) delete parsed[parsedOrder.shift()];
        }
        return parsed[mid][g - blocks[mid].first];
      }
    }
    return null;  // a block the page has not read yet (it is still loading)
  }

  // -- boards -------------------------------------------------------------------------
  function el(name, attrs) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (key) {
      if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]);
    });
    return node;
  }

  function template(key) {
    if (!templates[key]) {
      var source = document.getElementById("pdn-boards").content;
      var svg = source.querySelector('svg[data-key="' + key + '"]');
      var at = [];
      svg.querySelectorAll("rect[data-sq]").forEach(function (rect) {
        at[+rect.getAttribute("data-sq")] = [+rect.getAttribute("x"), +rect.getAttribute("y")];
      });
      templates[key] = svg;
      cells[key] = at;
    }
    return templates[key];
  }

  function centre(at, sq) {
    return [at[sq][0] + half, at[sq][1] + half];
  }

  function piece(x, y, letter) {
    var side = letter.toLowerCase();
    var g = el("g", { "data-piece": letter });
    g.appendChild(el("circle", {
      cx: x, cy: y, r: style.radius, fill: style.fill[side], stroke: style.edge[side],
      "stroke-width": 2,
    }));
    g.appendChild(el("circle", {
      cx: x, cy: y, r: style.radius - 6, fill: "none", stroke: style.ring[side],
      "stroke-width": 1.5,
    }));
    if (letter !== side) {
      var points = style.crownPoints.map(function (p) { return (x + p[0]) + "," + (y + p[1]); });
      g.appendChild(el("polygon", { points: points.join(" "), fill: style.crown, stroke: style.edge[side] }));
    }
    return g;
  }

  function pairs(points) {
    return points.map(function (p) { return p[0] + "," + p[1]; }).join(" ");
  }

  // As pdn_tools.report.svg.arrow_shape: the line stops inside the head, whose tip is
  // the last point.
  function arrowShape(points) {
    var p1 = points[points.length - 2], p2 = points[points.length - 1];
    var length = Math.sqrt((p2[0] - p1[0]) * (p2[0] - p1[0]) + (p2[1] - p1[1]) * (p2[1] - p1[1])) || 1;
    var ux = (p2[0] - p1[0]) / length, uy = (p2[1] - p1[1]) / length;
    var bx = p2[0] - style.head[0] * ux, by = p2[1] - style.head[0] * uy, w = style.head[1];
    var line = points.slice(0, -1).concat([[Math.round(bx + 2 * ux), Math.round(by + 2 * uy)]]);
    var head = [p2, [Math.round(bx - w * uy), Math.round(by + w * ux)],
      [Math.round(bx + w * uy), Math.round(by - w * ux)]];
    return [line, head];
  }

  function board(view) {
    var key = view[0], fen = view[1], pieces = view[2], arrows = view[3], lights = view[4];
    var svg = document.importNode(template(key), true);
    var at = cells[key];
    var labels = svg.querySelector("g.labels");
    function add(node) { svg.insertBefore(node, labels); }
    svg.removeAttribute("data-key");
    svg.setAttribute("data-fen", fen);
    var title = el("title", {});
    title.textContent = fen;
    svg.insertBefore(title, svg.firstChild);
    lights.forEach(function (h) {
      add(el("rect", {
        class: "hl " + h[1], "data-sq": h[0], x: at[h[0]][0], y: at[h[0]][1],
        width: square, height: square, fill: style.palette[h[1]], "fill-opacity": style.highlight,
      }));
    });
    for (var sq = 1; sq <= pieces.length; sq++) {
      var letter = pieces.charAt(sq - 1);
      if (letter !== ".") {
        var c = centre(at, sq);
        var g = piece(c[0], c[1], letter);
        g.setAttribute("data-sq", sq);
        add(g);
      }
    }
    arrows.forEach(function (a) {
      a[2].forEach(function (sq) {
        var c = centre(at, sq), x = c[0], y = c[1];
        add(el("path", {
          class: "x " + a[0], "data-sq": sq,
          d: "M" + (x - 12) + "," + (y - 12) + "L" + (x + 12) + "," + (y + 12) + "M" + (x + 12) +
            "," + (y - 12) + "L" + (x - 12) + "," + (y + 12),
          fill: "none", stroke: style.palette[a[0]], "stroke-width": style.mark,
          "stroke-linecap": "round",
        }));
      });
    });
    var ends = arrows.map(function (a) {
      var first = a[1][0], last = a[1][a[1].length - 1];
      return Math.min(first, last) + "-" + Math.max(first, last);
    });
    arrows.forEach(function (a, n) {
      var points = a[1].map(function (sq) { return centre(at, sq); });
      var twin = ends.filter(function (e) { return e === ends[n]; }).length > 1;
      var p1 = points[0], p2 = points[points.length - 1];
      var length = Math.sqrt((p2[0] - p1[0]) * (p2[0] - p1[0]) + (p2[1] - p1[1]) * (p2[1] - p1[1]));
      if (twin && length) {
        // As pdn_tools.report.svg.arrow_points: LANE units to the left of the direction.
        var dx = style.lane * (p2[1] - p1[1]) / length, dy = -style.lane * (p2[0] - p1[0]) / length;
        points = points.map(function (p) { return [Math.round(p[0] + dx), Math.round(p[1] + dy)]; });
      }
      var look = style.arrows[a[0]], colour = style.palette[a[0]];
      var shape = arrowShape(points);
      var g = el("g", {
        class: "arrow " + a[0], "data-path": a[1].join("-"), "data-points": pairs(points),
        opacity: look[2],
      });
      g.appendChild(el("polyline", {
        points: pairs(shape[0]), fill: "none", stroke: colour, "stroke-width": look[0],
        "stroke-linecap": "butt", "stroke-linejoin": "round", "stroke-dasharray": look[1],
      }));
      g.appendChild(el("polygon", { points: pairs(shape[1]), fill: colour }));
      add(g);
    });
    return svg;
  }

  function figure(view) {
    var fig = document.createElement("figure");
    fig.appendChild(board(view));
    var caption = document.createElement("figcaption");
    if (view[5]) caption.appendChild(text("span", "what", view[5]));
    caption.appendChild(text("code", "fen", view[1]));
    fig.appendChild(caption);
    return fig;
  }

  // -- one finding ------------------------------------------------------------------------
  function text(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined && content !== null) node.textContent = content;
    return node;
  }

  function link(href, cls, content) {
    var a = text("a", cls, content);
    a.href = "#" + href;
    return a;
  }

  function tag(game, name) {
    for (var k = game.h.length - 1; k >= 0; k--) {
      if (game.h[k][0].toLowerCase() === name) return game.h[k][1];
    }
    return "";
  }

  function players(game) {
    return (tag(game, "white") || "?") + " – " + (tag(game, "black") || "?");
  }

  function facts(game) {
    return [tag(game, "event"), tag(game, "date"), game.r, game.v].filter(Boolean).join(" · ");
  }

  function place(file, line, col) {
    var where = text("span", "loc", shorten(files[file], 70) + ":" + line + ":" + col);
    where.title = files[file] + ":" + line + ":" + col;
    return where;
  }

  function finding(id, n) {
    var f = findings[id];
    var game = gameData(f[1]);
    var node = text("article", "finding sev-" + f[4]);
    node.id = "f" + n;
    node.tabIndex = -1;
    node.setAttribute("data-n", n);
    node.setAttribute("data-id", id);
    node.setAttribute("data-code", f[3]);
    node.setAttribute("data-severity", f[4]);
    if (f[8] !== null) node.setAttribute("data-ply", f[8]);
    if (f[12]) node.setAttribute("data-habit", f[12][0]);
    var head = text("header");
    head.appendChild(text("span", "code", f[3]));
    head.appendChild(text("span", "sev", f[12] ? f[4] + " · habit" : f[4]));
    head.appendChild(place(f[0], f[6], f[7]));
    if (f[8] !== null) head.appendChild(text("span", "ply", "ply " + f[8] + (f[9] ? ", in a variation" : "")));
    node.appendChild(head);
    if (f[2]) {
      var about = text("p", "game");
      about.appendChild(text("span", "", "game " + f[2] + (game ? " — " + players(game) : "")));
      if (game && facts(game)) about.appendChild(text("span", "facts", facts(game)));
      if (f[1] >= 0) {
        var open = link("game=" + f[1] + (f[8] !== null && !f[9] ? "&ply=" + f[8] : ""), "open", "open the game ▸");
        about.appendChild(open);
      }
      node.appendChild(about);
    }
    node.appendChild(text("p", "msg", f[5]));
    if (f[11]) node.appendChild(text("pre", "context", f[11]));
    if (f[12]) node.appendChild(habitPlaces(f[12]));
    if (f[10] !== null && game && game.b[f[10]]) node.appendChild(figure(game.b[f[10]]));
    return node;
  }

  function habitPlaces(habit) {
    var details = text("details", "places");
    details.appendChild(text("summary", "", "all " + habit[0].toLocaleString("en") +
      " occurrences (in " + habit[1].toLocaleString("en") + " of the file's " +
      habit[2].toLocaleString("en") + " games)"));
    details.addEventListener("toggle", function () {
      if (!details.open || details.querySelector("ol")) return;
      var items = text("ol");
      habit[3].forEach(function (p) {
        var item = text("li");
        var where = "game " + p[1] + (p[4] !== null ? ", ply " + p[4] : "") + " (line " + p[2] + ")";
        item.appendChild(p[0] >= 0 ? link("game=" + p[0] + (p[4] !== null ? "&ply=" + p[4] : ""), "", where) : text("span", "", where));
        items.appendChild(item);
      });
      details.appendChild(items);
    });
    return details;
  }

  // -- the list, the filters, the keys ---------------------------------------------------
  function state() {
    return { code: controls.code.value, sev: controls.sev.value, file: controls.file.value };
  }

  function hash(extra) {
    var s = state();
    var parts = [];
    ["code", "sev", "file"].forEach(function (k) {
      if (s[k] !== "") parts.push(k + "=" + encodeURIComponent(s[k]));
    });
    Object.keys(extra || {}).forEach(function (k) {
      parts.push(k + "=" + encodeURIComponent(extra[k]));
    });
    return parts.join("&");
  }

  function choose(select, value) {
    var known = Array.prototype.some.call(select.options, function (o) { return o.value === value; });
    select.value = known ? value : "";
  }

  function matches(id, s) {
    var f = findings[id];
    return (!s.code || f[3] === s.code) && (!s.sev || f[4] === s.sev) &&
      (s.file === "" || String(f[0]) === s.file);
  }

  function show(which) {
    mode = which;
    list.hidden = which === "viewer";
    viewer.hidden = which !== "viewer";
    nav.hidden = which !== "list";
  }

  function render() {
    show("list");
    var pages = Math.max(1, Math.ceil(shown.length / size));
    page = Math.min(Math.max(page, 0), pages - 1);
    list.textContent = "";
    var first = page * size;
    var heading = null;
    shown.slice(first, first + size).forEach(function (id, k) {
      var level = findings[id][4];
      if (level !== heading) {
        heading = level;
        var count = shown.filter(function (n) { return findings[n][4] === level; }).length;
        list.appendChild(text("h2", "level sev-" + level, { error: "Errors", warning: "Warnings", info: "Info" }[level] + " (" + count.toLocaleString("en") + ")"));
      }
      list.appendChild(finding(id, first + k));
    });
    if (!shown.length) list.appendChild(text("p", "empty", "No finding matches these filters."));
    status.textContent = shown.length + " of " + all.length + " findings · page " + (page + 1) +
      " of " + pages;
    document.getElementById("prev").disabled = page === 0;
    document.getElementById("next").disabled = page >= pages - 1;
  }

  function focus(n) {
    if (!shown.length) return;
    current = Math.min(Math.max(n, 0), shown.length - 1);
    var wanted = Math.floor(current / size);
    if (mode !== "list" || wanted !== page || !document.getElementById("f" + current)) {
      page = wanted;
      render();
    }
    var old = list.querySelector(".finding.current");
    if (old) old.classList.remove("current");
    var node = document.getElementById("f" + current);
    node.classList.add("current");
    node.focus({ preventScroll: true });
    node.scrollIntoView({ block: "start" });
  }

  // -- the games of a file -----------------------------------------------------------------
  function gameList(file, number) {
    show("viewer");
    viewer.textContent = "";
    var range = data.fileGames[file];
    var pages = Math.max(1, Math.ceil(range[1] / size));
    number = Math.min(Math.max(number, 0), pages - 1);
    var head = text("div", "viewer-head");
    var title = text("h2", "", "Games of " + shorten(files[file], 80));
    title.title = files[file];
    head.appendChild(title);
    var links = text("p", "links");
    links.appendChild(link(hash(), "", "◂ back to the findings"));
    if (number > 0) links.appendChild(link("games=" + file + "&page=" + number, "", "◀ previous page"));
    links.appendChild(text("span", "", "page " + (number + 1) + " of " + pages));
    if (number + 1 < pages) links.appendChild(link("games=" + file + "&page=" + (number + 2), "", "next page ▶"));
    head.appendChild(links);
    viewer.appendChild(head);
    var table = text("table", "counts games");
    var row = text("tr");
    ["Game", "Players", "Event · date · result", "Plies", "Findings"].forEach(function (h) { row.appendChild(text("th", "", h)); });
    table.appendChild(row);
    for (var k = number * size; k < Math.min(range[1], (number + 1) * size); k++) {
      var g = range[0] + k;
      var game = gameData(g);
      if (!game) continue;
      row = text("tr");
      var cell = text("td");
      cell.appendChild(link("game=" + g, "", "game " + game.g));
      row.appendChild(cell);
      row.appendChild(text("td", "", players(game)));
      row.appendChild(text("td", "", facts(game)));
      row.appendChild(text("td", "n", game.m ? game.m.split(" ").length : 0));
      var worst = { error: 0, warning: 0, info: 0 };
      game.n.forEach(function (m) { worst[m[1]]++; });
      row.appendChild(text("td", "", ["error", "warning", "info"].filter(function (l) { return worst[l]; }).map(function (l) { return worst[l] + " " + l; }).join(", ")));
      table.appendChild(row);
    }
    viewer.appendChild(table);
    window.scrollTo(0, viewer.offsetTop);
  }

  // -- the game viewer ---------------------------------------------------------------------
  var open = null;  // {g, game, moves, engine, ply}

  function applyToken(pieces, token) {
    if (token.charAt(0) === "@") {
      var cut = token.indexOf(";");
      pieces = token.slice(1, cut).split("");
      token = token.slice(cut + 1);
    }
    if (token === "=" || token === "") return { pieces: pieces, arrow: null };
    var crowned = token.charAt(token.length - 1) === "K";
    if (crowned) token = token.slice(0, -1);
    var taken = [];
    var slash = token.indexOf("/");
    if (slash >= 0) {
      taken = token.slice(slash + 1).split(".").map(Number);
      token = token.slice(0, slash);
    }
    var route = token.split(/[-x]/).map(Number);
    var from = route[0], to = route[route.length - 1];
    var mover = pieces[from - 1];
    pieces[from - 1] = ".";
    taken.forEach(function (sq) { pieces[sq - 1] = "."; });
    pieces[to - 1] = crowned ? mover.toUpperCase() : mover;
    return { pieces: pieces, arrow: ["blue", route, taken], from: from, to: to };
  }

  function positionAt(game, ply) {
    var pieces = game.s.split("");
    var last = null;
    var engine = game.e ? game.e.split(" ") : [];
    for (var k = 0; k < Math.min(ply, engine.length); k++) {
      var step = applyToken(pieces, engine[k]);
      pieces = step.pieces;
      last = step.arrow ? step : last;
      if (k + 1 === ply && !step.arrow) last = null;
    }
    return { pieces: pieces.join(""), last: last, known: Math.min(ply, engine.length) };
  }

  function openGame(g, ply) {
    var game = gameData(g);
    show("viewer");
    viewer.textContent = "";
    if (!game) {
      viewer.appendChild(text("p", "empty", "This game is not in the page yet; it is still loading."));
      return;
    }
    var moves = game.m ? game.m.split(" ") : [];
    open = { g: g, game: game, moves: moves, ply: 0 };
    var head = text("div", "viewer-head");
    var title = text("h2", "", "game " + game.g + " of " + shorten(files[game.f], 70) + " (line " + game.l + ")");
    title.title = files[game.f];
    head.appendChild(title);
    head.appendChild(text("p", "who", players(game)));
    if (facts(game)) head.appendChild(text("p", "facts", facts(game)));
    var links = text("p", "links");
    links.appendChild(link(hash(), "", "◂ back to the findings"));
    links.appendChild(link("games=" + game.f, "", "the games of this file"));
    if (g > 0) links.appendChild(link("game=" + (g - 1), "", "◀ previous game"));
    if (g + 1 < data.games) links.appendChild(link("game=" + (g + 1), "", "next game ▶"));
    head.appendChild(links);
    viewer.appendChild(head);
    var body = text("div", "viewer-body");
    var stage = text("div", "stage");
    stage.appendChild(text("div", "board-slot"));
    var steps = text("div", "steps");
    [["first", "|◀", "Start (Home)"], ["back", "◀", "Previous ply (←)"], ["fwd", "▶", "Next ply (→)"], ["last", "▶|", "End (End)"]].forEach(function (b) {
      var button = text("button", b[0], b[1]);
      button.type = "button";
      button.title = b[2];
      button.setAttribute("aria-label", b[2]);
      button.addEventListener("click", function () {
        step({ first: 0, back: open.ply - 1, fwd: open.ply + 1, last: open.moves.length }[b[0]]);
      });
      steps.appendChild(button);
    });
    steps.appendChild(text("span", "ply-status"));
    stage.appendChild(steps);
    if (game.z) stage.appendChild(text("p", "note", game.z + "; the board shows the last position the replay reached."));
    if (!game.k) stage.appendChild(text("p", "note", "This game was not replayed: there is no board to show."));
    body.appendChild(stage);
    var side = text("div", "side");
    side.appendChild(moveList(game, moves));
    side.appendChild(gameFindings(game));
    if (game.d.length) {
      var draws = text("ul", "draws");
      game.d.forEach(function (d) {
        var item = text("li");
        item.appendChild(link("game=" + g + "&ply=" + d[1], "", "ply " + d[1]));
        item.appendChild(document.createTextNode(": draw, " + d[0] + " rule" + (d[3] ? " (in a variation)" : "") + " — " + d[2]));
        draws.appendChild(item);
      });
      side.appendChild(draws);
    }
    if (game.h.length) {
      var details = text("details", "tags");
      details.appendChild(text("summary", "", "Tags (" + game.h.length + ")"));
      var table = text("table");
      game.h.forEach(function (pair) {
        var row = text("tr");
        row.appendChild(text("th", "", pair[0]));
        row.appendChild(text("td", "", pair[1]));
        table.appendChild(row);
      });
      details.appendChild(table);
      side.appendChild(details);
    }
    body.appendChild(side);
    viewer.appendChild(body);
    step(ply === null ? 0 : ply, true);
    window.scrollTo(0, viewer.offsetTop);
  }

  function moveList(game, moves) {
    var worst = {};
    game.n.forEach(function (m) {
      if (m[0] !== null && (worst[m[0]] === undefined || RANK[m[1]] < RANK[worst[m[0]]])) worst[m[0]] = m[1];
    });
    var branches = {};
    game.x.forEach(function (v) { (branches[v[0]] = branches[v[0]] || []).push(v[1]); });
    var p = text("p", "moves");
    if (branches[0]) branches[0].forEach(function (v) { p.appendChild(text("span", "var", "(" + v + ") ")); });
    moves.forEach(function (move, n) {
      var slot = n + game.o;
      var label = slot % 2 === 0 ? (slot / 2 + 1) + ". " : n === 0 ? ((slot + 1) / 2) + "... " : "";
      if (label) p.appendChild(text("span", "no", label));
      var ply = n + 1;
      var mark = text("a", "mv" + (worst[ply] ? " bad sev-" + worst[ply] : ""), move);
      mark.href = "#game=" + open.g + "&ply=" + ply;
      mark.setAttribute("data-ply", ply);
      mark.addEventListener("click", function (event) {
        event.preventDefault();
        step(ply);
      });
      p.appendChild(mark);
      p.appendChild(document.createTextNode(" "));
      if (branches[ply]) branches[ply].forEach(function (v) { p.appendChild(text("span", "var", "(" + v + ") ")); });
    });
    if (!moves.length) p.appendChild(text("span", "none", "no moves"));
    return p;
  }

  function gameFindings(game) {
    var items = text("ul", "game-findings");
    game.n.forEach(function (m) {
      var item = text("li", "sev-" + m[1]);
      item.appendChild(text("span", "code", m[2]));
      if (m[0] !== null) {
        var to = link("game=" + open.g + "&ply=" + m[0], "", "ply " + m[0]);
        to.addEventListener("click", function (event) { event.preventDefault(); step(m[0]); });
        item.appendChild(to);
      } else {
        item.appendChild(text("span", "where", "line " + m[4]));
      }
      item.appendChild(text("span", "msg", m[3]));
      if (m[6] !== null && m[6] !== undefined && position[m[6]] !== undefined) {
        item.appendChild(link("finding=" + m[6], "", "in the list ▸"));
      }
      items.appendChild(item);
    });
    if (!game.n.length) items.appendChild(text("li", "none", "No findings in this game."));
    return items;
  }

  function step(ply, initial) {
    if (!open) return;
    var game = open.game;
    ply = Math.min(Math.max(ply, 0), open.moves.length);
    open.ply = ply;
    var slot = viewer.querySelector(".board-slot");
    slot.textContent = "";
    var at = positionAt(game, ply);
    if (game.k) {
      var arrows = [], lights = [];
      if (at.last && at.known === ply) {
        arrows.push(at.last.arrow);
        lights = [[at.last.from, "blue"], [at.last.to, "blue"]];
      }
      var view = [game.k, "", at.pieces, arrows, lights, ""];
      var svg = board(view);
      svg.removeAttribute("data-fen");
      svg.querySelector("title").textContent = "game " + game.g + " after ply " + at.known;
      svg.setAttribute("data-ply", at.known);
      slot.appendChild(svg);
    }
    var label = ply === 0 ? "start position" : "after ply " + ply + " of " + open.moves.length + ": " + open.moves[ply - 1];
    if (game.k && at.known < ply) label += " (not replayed: position after ply " + at.known + ")";
    viewer.querySelector(".ply-status").textContent = label;
    viewer.querySelectorAll("p.moves a.mv").forEach(function (a) {
      a.classList.toggle("current", +a.getAttribute("data-ply") === ply);
    });
    if (!initial) history.replaceState(null, "", "#game=" + open.g + "&ply=" + ply);
  }

  // -- the address -----------------------------------------------------------------------
  function fromHash(followed) {
    var raw = location.hash.slice(1);
    // A plain anchor of the page (an event, a game's row in an event's table) is a place
    // to scroll to, not a state: the findings, their filters and page stay as they are.
    var anchor = raw !== "" && raw.indexOf("=") < 0 ? document.getElementById(decodeURIComponent(raw)) : null;
    if (anchor && mode === "list" && followed) return;
    var params = new URLSearchParams(anchor ? "" : raw);
    // An address that opens a game, a file's games or one finding without naming a
    // filter (the links of a finding, of a game's findings) keeps the filters, so that
    // the way back to the findings finds them as they were.
    var place = params.has("game") || params.has("games") || params.has("finding");
    if (!anchor && (!place || ["code", "sev", "file"].some(function (k) { return params.has(k); }))) {
      choose(controls.code, params.get("code") || "");
      choose(controls.sev, params.get("sev") || "");
      choose(controls.file, params.get("file") || "");
    }
    if (params.get("game") !== null) {
      var ply = params.get("ply");
      openGame(parseInt(params.get("game"), 10) || 0, ply === null ? null : parseInt(ply, 10) || 0);
      return;
    }
    open = null;
    if (params.get("games") !== null) {
      gameList(parseInt(params.get("games"), 10) || 0, (parseInt(params.get("page"), 10) || 1) - 1);
      return;
    }
    var s = state();
    shown = all.filter(function (id) { return matches(id, s); });
    var wanted = params.get("finding");
    if (wanted !== null && shown.indexOf(+wanted) < 0) {
      // The finding asked for is one the filters hide: show every finding instead.
      ["code", "sev", "file"].forEach(function (k) { choose(controls[k], ""); });
      shown = all.slice();
    }
    if (!anchor) page = Math.max(0, (parseInt(params.get("page"), 10) || 1) - 1);
    current = -1;
    render();
    if (anchor) anchor.scrollIntoView({ block: "start" });
    if (wanted !== null) {
      var n = shown.indexOf(+wanted);
      if (n >= 0) focus(n);
    }
  }

  function go(extra) {
    var next = hash(extra);
    if (location.hash.slice(1) === next) fromHash();
    else location.hash = next;
  }

  Object.keys(controls).forEach(function (k) {
    controls[k].addEventListener("change", function () { go(); });
  });
  document.getElementById("prev").addEventListener("click", function () {
    go({ page: page });
  });
  document.getElementById("next").addEventListener("click", function () {
    go({ page: page + 2 });
  });
  window.addEventListener("hashchange", function () { fromHash(true); });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) return;
    if (mode === "viewer" && open) {
      if (event.key === "ArrowRight") step(open.ply + 1);
      else if (event.key === "ArrowLeft") step(open.ply - 1);
      else if (event.key === "Home") step(0);
      else if (event.key === "End") step(open.moves.length);
      else if (event.key === "Escape") location.hash = hash();
      else return;
    } else if (mode === "list") {
      if (event.key === "j") focus(current + 1);
      else if (event.key === "k") focus(current < 0 ? 0 : current - 1);
      else if (event.key === "n") go({ page: page + 2 });
      else if (event.key === "p") go({ page: page });
      else if (event.key === "o" && current >= 0) {
        var f = findings[shown[current]];
        if (f[1] < 0) return;
        location.hash = "game=" + f[1] + (f[8] !== null && !f[9] ? "&ply=" + f[8] : "");
      } else return;
    } else if (event.key === "Escape") {
      location.hash = hash();
    } else return;
    event.preventDefault();
  });
  function mark(name) {
    // For benchmarks/bench_report.py: when the list, and then its boards, were shown.
    if (window.performance && performance.mark) performance.mark(name);
  }

  document.documentElement.classList.add("js");
  fromHash();
  mark("pdn-list-shown");
  if (document.readyState === "loading") {
    // The games come after this script: once they are read, draw what needed them.
    document.addEventListener("DOMContentLoaded", function () {
      blocks = null;
      var y = window.scrollY;
      fromHash();
      if (mode === "list" && current < 0) window.scrollTo(0, y);
      mark("pdn-boards-shown");
    });
  } else {
    mark("pdn-boards-shown");
  }
})();
