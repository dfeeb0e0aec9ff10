// The HTML report's page script (pdn_tools/report/html.py inlines it).
//
// The findings and their boards arrive as data (the JSON in #pdn-data); this script
// lists one page of them at a time, so that a report of tens of thousands of findings
// opens as quickly as a small one.  A board is drawn only when its finding is on the
// page shown: a copy of the empty board of its kind (rendered by pdn_tools.report.svg
// into #pdn-boards, each playing square a <rect data-sq>), with the same elements as
// pdn_tools.report.svg.board_svg adds: highlights, pieces, capture marks, arrows.
// The filters (code, severity, file), the page and the finding in focus live in the
// address's #fragment, so that links in the summary filter and the back button works.
// Keys: j / k next and previous finding, n / p next and previous page.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var PIECES = { w: "pdn-wm", W: "pdn-wk", b: "pdn-bm", B: "pdn-bk" };
  var data = JSON.parse(document.getElementById("pdn-data").textContent);
  var games = data.games;
  var files = data.files;
  var square = data.square;
  var lane = data.lane;
  var half = square / 2;
  var size = data.pageSize;
  var all = [];
  games.forEach(function (game, g) {
    game.m = game.m ? game.m.split(" ") : [];
    game.i.forEach(function (_, i) {
      all.push([g, i]);
    });
  });
  var controls = {
    code: document.getElementById("f-code"),
    sev: document.getElementById("f-sev"),
    file: document.getElementById("f-file"),
  };
  files.forEach(function (name, n) {
    var option = document.createElement("option");
    option.value = String(n);
    option.textContent = name;
    controls.file.appendChild(option);
  });
  var list = document.getElementById("findings");
  var status = document.getElementById("status");
  var shown = all;
  var page = 0;
  var current = -1;
  var templates = {};
  var cells = {};

  // -- boards -------------------------------------------------------------------------
  function el(name, attrs) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (key) {
      node.setAttribute(key, attrs[key]);
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

  function board(view) {
    var key = view[0], fen = view[1], pieces = view[2], arrows = view[3], lights = view[4];
    var svg = document.importNode(template(key), true);
    var at = cells[key];
    svg.removeAttribute("data-key");
    svg.setAttribute("data-fen", fen);
    var title = el("title", {});
    title.textContent = fen;
    svg.insertBefore(title, svg.firstChild);
    lights.forEach(function (h) {
      svg.appendChild(el("rect", {
        class: "hl " + h[1], "data-sq": h[0], x: at[h[0]][0], y: at[h[0]][1],
        width: square, height: square,
      }));
    });
    for (var sq = 1; sq <= pieces.length; sq++) {
      var piece = pieces.charAt(sq - 1);
      if (piece !== ".") {
        var c = centre(at, sq);
        svg.appendChild(el("use", { href: "#" + PIECES[piece], "data-sq": sq, x: c[0], y: c[1] }));
      }
    }
    arrows.forEach(function (a) {
      a[2].forEach(function (sq) {
        var c = centre(at, sq);
        svg.appendChild(el("use", {
          class: "x " + a[0], href: "#pdn-x", "data-sq": sq, x: c[0], y: c[1],
        }));
      });
    });
    var ends = arrows.map(function (a) {
      var first = a[1][0], last = a[1][a[1].length - 1];
      return Math.min(first, last) + "-" + Math.max(first, last);
    });
    arrows.forEach(function (a, n) {
      var at2 = a[1].map(function (sq) { return centre(at, sq); });
      var twin = ends.filter(function (e) { return e === ends[n]; }).length > 1;
      var p1 = at2[0], p2 = at2[at2.length - 1];
      var length = Math.sqrt((p2[0] - p1[0]) * (p2[0] - p1[0]) + (p2[1] - p1[1]) * (p2[1] - p1[1]));
      if (twin && length) {
        // As pdn_tools.report.svg.arrow_points: LANE units to the left of the direction.
        var dx = lane * (p2[1] - p1[1]) / length, dy = -lane * (p2[0] - p1[0]) / length;
        at2 = at2.map(function (p) { return [Math.round(p[0] + dx), Math.round(p[1] + dy)]; });
      }
      var points = at2.map(function (p) { return p.join(","); }).join(" ");
      svg.appendChild(el("polyline", {
        class: "arrow " + a[0], "data-path": a[1].join("-"), points: points,
        "marker-end": "url(#pdn-head-" + a[0] + ")",
      }));
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

  // -- one game, one finding ------------------------------------------------------------
  function text(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function tag(game, name) {
    for (var k = game.h.length - 1; k >= 0; k--) {
      if (game.h[k][0].toLowerCase() === name) return game.h[k][1];
    }
    return "";
  }

  function moveList(game, g) {
    var marks = {};
    game.i.forEach(function (issue, i) {
      if (issue[5] !== null && !issue[6] && marks[issue[5]] === undefined) marks[issue[5]] = i;
    });
    var p = text("p", "moves");
    game.m.forEach(function (move, n) {
      var slot = n + game.o;
      var label = slot % 2 === 0 ? (slot / 2 + 1) + ". " : n === 0 ? ((slot + 1) / 2) + "... " : "";
      if (label) p.appendChild(text("span", "no", label));
      var ply = n + 1;
      if (marks[ply] !== undefined) {
        var mark = text("a", "bad sev-" + game.i[marks[ply]][1], move);
        mark.href = "#" + hash({ finding: g + "." + marks[ply] });
        mark.setAttribute("data-ply", ply);
        p.appendChild(mark);
      } else {
        p.appendChild(text("span", "mv", move));
      }
      p.appendChild(document.createTextNode(" "));
    });
    if (!game.m.length) p.appendChild(text("span", "none", "no moves"));
    return p;
  }

  function gameSection(g, continued) {
    var game = games[g];
    var section = text("section", "game");
    section.setAttribute("data-game", g);
    var head = text("h2");
    var where = files[game.f] + (game.g ? " — game " + game.g + " (line " + game.l + ")" : " — file");
    head.appendChild(text("span", "where", where));
    if (game.g) {
      var who = (tag(game, "white") || "?") + " – " + (tag(game, "black") || "?");
      head.appendChild(text("span", "who", who));
      var facts = [tag(game, "event"), tag(game, "date"), game.r, game.v].filter(Boolean).join(" · ");
      head.appendChild(text("span", "facts", facts));
    }
    if (continued) head.appendChild(text("span", "cont", "(continued)"));
    section.appendChild(head);
    if (!continued && game.h.length) {
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
      section.appendChild(details);
    }
    if (!continued && game.g) section.appendChild(moveList(game, g));
    if (!continued && game.d.length) {
      var draws = text("div", "draws");
      game.d.forEach(function (d) {
        var item = text("div", "draw");
        var line = "draw: " + d[0] + " rule holds at ply " + d[1] + (d[3] ? " (in a variation)" : "");
        item.appendChild(text("p", "", line + " — " + d[2]));
        if (d[6] !== null) item.appendChild(figure(game.b[d[6]]));
        draws.appendChild(item);
      });
      section.appendChild(draws);
    }
    return section;
  }

  function finding(g, i, n) {
    var game = games[g];
    var issue = game.i[i];
    var node = text("article", "finding sev-" + issue[1]);
    node.id = "f" + n;
    node.tabIndex = -1;
    node.setAttribute("data-n", n);
    node.setAttribute("data-code", issue[0]);
    node.setAttribute("data-severity", issue[1]);
    if (issue[5] !== null) node.setAttribute("data-ply", issue[5]);
    var head = text("header");
    head.appendChild(text("span", "code", issue[0]));
    head.appendChild(text("span", "sev", issue[1]));
    head.appendChild(text("span", "loc", files[game.f] + ":" + issue[3] + ":" + issue[4]));
    if (issue[5] !== null) {
      head.appendChild(text("span", "ply", "ply " + issue[5] + (issue[6] ? ", in a variation" : "")));
    }
    node.appendChild(head);
    node.appendChild(text("p", "msg", issue[2]));
    if (issue[7] !== null) node.appendChild(figure(game.b[issue[7]]));
    return node;
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

  function matches(pair, s) {
    var game = games[pair[0]];
    var issue = game.i[pair[1]];
    return (!s.code || issue[0] === s.code) && (!s.sev || issue[1] === s.sev) &&
      (s.file === "" || String(game.f) === s.file);
  }

  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / size));
    page = Math.min(Math.max(page, 0), pages - 1);
    list.textContent = "";
    var first = page * size;
    var section = null;
    var last = -1;
    shown.slice(first, first + size).forEach(function (pair, k) {
      if (pair[0] !== last) {
        section = gameSection(pair[0], k === 0 && first > 0 && shown[first - 1][0] === pair[0]);
        list.appendChild(section);
        last = pair[0];
      }
      section.appendChild(finding(pair[0], pair[1], first + k));
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
    if (wanted !== page || !document.getElementById("f" + current)) {
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

  function fromHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    choose(controls.code, params.get("code") || "");
    choose(controls.sev, params.get("sev") || "");
    choose(controls.file, params.get("file") || "");
    var s = state();
    shown = all.filter(function (pair) { return matches(pair, s); });
    page = Math.max(0, (parseInt(params.get("page"), 10) || 1) - 1);
    current = -1;
    render();
    var wanted = params.get("finding");
    if (wanted) {
      var parts = wanted.split(".");
      var n = -1;
      shown.forEach(function (pair, k) {
        if (n < 0 && String(pair[0]) === parts[0] && String(pair[1]) === parts[1]) n = k;
      });
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
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) return;
    if (event.key === "j") focus(current + 1);
    else if (event.key === "k") focus(current < 0 ? 0 : current - 1);
    else if (event.key === "n") go({ page: page + 2 });
    else if (event.key === "p") go({ page: page });
    else return;
    event.preventDefault();
  });
  document.documentElement.classList.add("js");
  fromHash();
})();
