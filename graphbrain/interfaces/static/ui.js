// graphbrain graph page: an entity's neighbourhood (cytoscape) and a ContextPackage with its trace.
// It only calls graphbrain's JSON API, with the token typed in the page (kept in sessionStorage, so it
// dies with the tab). Every value from the API is put in the page as text, never as HTML.
// The URL fragment may preselect: #entity=Neo4j&context=ctx_…&ns=team-a, and may carry &token=… for a
// view opened without typing (a headless browser, a link from a terminal): the page moves it into
// sessionStorage and takes it out of the address at once, so it does not stay in the history.
// Clicking an entity expands its neighbours into the graph (again and again: 2, 3… hops); hovering a
// node shows its text; a loaded context highlights the graph paths that explain its evidence.
"use strict";

(function () {
  const TOKEN_KEY = "graphbrain.token";
  const NS_KEY = "graphbrain.namespace";
  const COLORS = {
    entity: "#2f6fed", related: "#7c4dff", tasks: "#f59e0b", decisions: "#10b981",
    turn: "#64748b", document: "#ef4444", memory: "#0ea5e9", evidence: "#0ea5e9",
  };
  const EXPLAINED = "#f97316";  // the paths that explain a context's evidence

  const $ = (id) => document.getElementById(id);
  let cy = null;

  // ------------------------------------------------------------------ DOM helpers (text only)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "width") node.style.width = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }

  function clear(node, ...children) {
    node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
  }

  function status(text, isError) {
    const s = $("status");
    s.textContent = text;
    s.className = isError ? "error" : "";
  }

  function fmtScore(v) {
    return typeof v === "number" ? v.toFixed(3) : "";
  }

  function short(text, n) {
    const s = String(text ?? "");
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  }

  // ------------------------------------------------------------------ API
  function authHeaders() {
    const h = { "Accept": "application/json" };
    const token = sessionStorage.getItem(TOKEN_KEY);
    const ns = sessionStorage.getItem(NS_KEY);
    if (token) h["Authorization"] = "Bearer " + token;
    if (ns) h["X-Graphbrain-Namespace"] = ns;
    return h;
  }

  async function api(method, path, body) {
    const init = { method, headers: authHeaders() };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch (_) { data = null; }
    if (!res.ok) {
      const err = (data && data.error) || {};
      const fields = (err.fields || []).map((f) => `${f.field}: ${f.reason}`).join("; ");
      throw new Error(`${res.status} ${err.type || "error"}: ${err.message || res.statusText}` +
        (fields ? ` (${fields})` : ""));
    }
    return data;
  }

  // ------------------------------------------------------------------ graph
  function entityNodeId(e) {
    return "e:" + (e.id || e.name);
  }

  // The nodes and edges of one entity view, its entity at `depth` hops from the first one drawn.
  function graphElements(view, depth) {
    const e = view.entity || {};
    const centre = entityNodeId(e);
    const nodes = new Map();
    const edges = [];
    const add = (id, label, kind, data, hops) => {
      if (!nodes.has(id)) nodes.set(id, { data: { id, label: short(label, 40), kind, raw: data, depth: hops } });
    };
    const link = (source, target, label, weight) => {
      edges.push({ data: { id: `${source}->${target}`, source, target, label: label || "", weight: weight || 1 } });
    };
    add(centre, e.name || e.key || e.id, depth === 0 ? "entity" : "related", e, depth);
    for (const r of view.related || []) {
      const id = entityNodeId(r);
      add(id, r.name || r.key, "related", r, depth + 1);
      link(centre, id, "related", r.weight);
    }
    for (const m of [...(view.tasks || []), ...(view.decisions || [])]) {
      const id = "m:" + m.id;
      add(id, m.key || m.text, m.type === "tasks" || m.type === "decisions" ? m.type : "memory", m, depth + 1);
      link(id, centre, "mentions");
    }
    for (const t of view.turns || []) {
      const id = `t:${t.session_id}/${t.turn_id}`;
      add(id, `${t.session_id} #${t.seq ?? t.turn_id}`, "turn", t, depth + 1);
      link(id, centre, "mentions", t.count);
    }
    for (const d of view.documents || []) {
      const id = "d:" + d.document_id;
      add(id, d.title || d.source_uri, "document", d, depth + 1);
      link(id, centre, "mentions", d.mentions);
    }
    return [...nodes.values(), ...edges];
  }

  function layout() {
    $("hover").hidden = true;  // its node moves
    // concentric by hops from the first entity: deterministic, the same graph always looks the same.
    const deepest = Math.max(0, ...cy.nodes().map((n) => n.data("depth") || 0));
    cy.layout({
      name: "concentric", animate: false, minNodeSpacing: 34, padding: 40,
      concentric: (n) => deepest + 1 - (n.data("depth") || 0), levelWidth: () => 1,
    }).run();
    cy.fit(undefined, 40);
  }

  function drawGraph(view) {
    const elements = graphElements(view, 0);
    if (cy) cy.destroy();
    cy = window.cytoscape({
      container: $("graph"),
      elements,
      // A small neighbourhood should not fill the box with three giant dots.
      maxZoom: 1.4,
      minZoom: 0.2,
      style: [
        {
          selector: "node",
          style: {
            "background-color": (n) => COLORS[n.data("kind")] || "#999",
            "label": "data(label)", "font-size": 11, "color": "#1d2330",
            "text-valign": "bottom", "text-margin-y": 4, "width": 22, "height": 22,
            "text-wrap": "ellipsis", "text-max-width": 140,
          },
        },
        { selector: "node[kind = 'entity']", style: { "width": 40, "height": 40, "font-size": 13, "font-weight": "bold" } },
        { selector: "node.expanded", style: { "border-width": 2, "border-color": "#1d2330" } },
        {
          selector: "edge",
          style: {
            "width": (ed) => Math.min(1 + Math.log2(1 + (ed.data("weight") || 1)), 6),
            "line-color": "#c3cad8", "curve-style": "bezier",
            "target-arrow-shape": "triangle", "target-arrow-color": "#c3cad8", "arrow-scale": 0.7,
          },
        },
        { selector: "node.explained", style: { "border-width": 5, "border-color": EXPLAINED } },
        {
          selector: "edge.explained",
          style: { "line-color": EXPLAINED, "target-arrow-color": EXPLAINED, "width": 5, "z-index": 10 },
        },
        { selector: ":selected", style: { "border-width": 3, "border-color": "#1d2330" } },
      ],
    });
    window.graphbrainGraph = cy;  // for the console and the browser tests
    cy.nodes()[0].addClass("expanded");
    layout();
    cy.on("tap", "node", (evt) => {
      const node = evt.target;
      showNode(node.data());
      const kind = node.data("kind");
      if ((kind === "related" || kind === "entity") && !node.hasClass("expanded")) expand(node);
    });
    cy.on("mouseover", "node", (evt) => hover(evt.target));
    cy.on("mouseout", "node", () => { $("hover").hidden = true; });
    // Re-fit after the page settles: the box may have changed size since the canvas was made.
    requestAnimationFrame(() => { cy.resize(); cy.fit(undefined, 40); });
    cy.on("dbltap", "node[kind = 'related']", (evt) => loadEntity(evt.target.data("raw").name));
    if (lastEvidence.length) highlightPaths(lastEvidence);
  }

  // Merge a related entity's own neighbourhood into the graph: one more hop each click.
  async function expand(node) {
    const raw = node.data("raw") || {};
    const name = raw.name || node.data("label");
    status(`expanding ${name}…`);
    try {
      const view = await api("GET", "/v1/entities/" + encodeURIComponent(name));
      const depth = node.data("depth") || 0;
      const fresh = graphElements(view, depth).filter((item) => cy.getElementById(item.data.id).empty());
      // The clicked node stands for the entity the view is centred on, whatever id the view gives it.
      const centre = entityNodeId(view.entity || {});
      for (const item of fresh) {
        if (item.data.id === centre) continue;
        if (item.data.source === centre) item.data.source = node.id();
        if (item.data.target === centre) item.data.target = node.id();
        item.data.id = item.data.source ? `${item.data.source}->${item.data.target}` : item.data.id;
      }
      cy.add(fresh.filter((item) => item.data.id !== centre && cy.getElementById(item.data.id).empty()));
      node.addClass("expanded");
      layout();
      if (lastEvidence.length) highlightPaths(lastEvidence);
      status(`expanded ${name}: ${fresh.length} new`);
    } catch (err) {
      status(err.message, true);
    }
  }

  function nodeText(data) {
    const raw = data.raw || {};
    return raw.text || raw.snippet || raw.detail || raw.title || raw.name || data.label || "";
  }

  function hover(node) {
    const box = $("hover");
    const text = nodeText(node.data());
    if (!text) { box.hidden = true; return; }
    const pos = node.renderedPosition();
    box.textContent = short(text, 400);
    box.style.left = Math.round(pos.x + 14) + "px";
    box.style.top = Math.round(pos.y + 14) + "px";
    box.hidden = false;
  }

  // ------------------------------------------------------------------ explained paths
  let lastEvidence = [];

  // A path element ("entity:neo4j", "message:t1/m1", "chunk:doc_…:…", "memory:…") → the graph node it is,
  // added when the graph does not hold it yet.
  function pathNode(element, label) {
    const [kind, ...rest] = String(element).split(":");
    const value = rest.join(":");
    const found = cy.nodes().filter((n) => {
      const raw = n.data("raw") || {};
      const k = n.data("kind");
      if (kind === "entity") {
        return (k === "entity" || k === "related") &&
          [raw.canonical, raw.name, raw.key].some((v) => v && String(v).toLowerCase() === value.toLowerCase());
      }
      if (kind === "message" || kind === "turn") return k === "turn" && value.split("/")[0] === String(raw.turn_id);
      if (kind === "chunk") return k === "document" && value.startsWith(String(raw.document_id) + ":");
      return raw.id === value;
    });
    if (found.nonempty()) return found[0];
    const id = "p:" + element;
    const existing = cy.getElementById(id);
    if (existing.nonempty()) return existing;
    const depth = Math.max(0, ...cy.nodes().map((n) => n.data("depth") || 0)) + 1;
    return cy.add({
      data: { id, label: short(kind === "entity" ? value : label, 40), kind: kind === "entity" ? "related" : "evidence",
        raw: { name: kind === "entity" ? value : undefined, path_element: element }, depth },
    });
  }

  function highlightPaths(evidence) {
    lastEvidence = evidence;
    if (!cy) return 0;
    cy.elements().removeClass("explained");
    let count = 0;
    for (const ev of evidence) {
      const path = ((ev.provenance || {}).path) || [];
      if (path.length < 3) continue;
      count += 1;
      let prev = pathNode(path[0], ev.label);
      prev.addClass("explained");
      for (let i = 2; i < path.length; i += 2) {
        const next = pathNode(path[i], `${ev.label} ${ev.title || ""}`);
        next.addClass("explained");
        const ids = [`${prev.id()}->${next.id()}`, `${next.id()}->${prev.id()}`];
        let edge = cy.getElementById(ids[0]).union(cy.getElementById(ids[1]));
        if (edge.empty()) {
          edge = cy.add({ data: { id: "x:" + ids[0], source: prev.id(), target: next.id(), label: path[i - 1] } });
        }
        edge.addClass("explained");
        prev = next;
      }
    }
    if (count) layout();
    return count;
  }

  function showNode(data) {
    const raw = data.raw || {};
    const dl = el("dl", { class: "kv" });
    for (const [k, v] of Object.entries(raw)) {
      if (v === null || v === undefined || v === "") continue;
      dl.append(el("dt", {}, k), el("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v)));
    }
    clear($("node-detail"), el("strong", {}, `${data.kind}: ${data.label}`), dl);
  }

  function showTimeline(view) {
    const rows = (view.timeline || []).map((t) =>
      el("tr", {}, el("td", {}, t.at || ""), el("td", {}, t.kind), el("td", {}, t.session_id || ""),
        el("td", {}, short(t.ref, 60)), el("td", {}, short(t.detail, 60))));
    if (!rows.length) { clear($("timeline")); return; }
    clear($("timeline"), el("table", {},
      el("colgroup", {}, ...["at", "kind", "session", "ref", "detail"].map((c) => el("col", { class: "c-" + c }))),
      el("thead", {}, el("tr", {}, ...["at", "kind", "session", "ref", "detail"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)));
  }

  // Put `value` in the input `inputId`, say what loads, run `show`; its failure goes to the status line.
  async function load(inputId, value, what, show) {
    if (!value) return;
    $(inputId).value = value;
    status(`loading ${what} ${value}…`);
    try {
      await show();
    } catch (err) {
      status(err.message, true);
    }
  }

  function loadEntity(name) {
    return load("entity-name", name, "entity", async () => {
      const view = await api("GET", "/v1/entities/" + encodeURIComponent(name));
      showTimeline(view);
      drawGraph(view);
      const e = view.entity || {};
      const aliases = (e.aliases || []).join(", ");
      clear($("node-detail"), el("strong", {}, e.name || name),
        aliases ? el("span", {}, ` — aliases: ${aliases}`) : null,
        el("span", { class: "hint" },
          ` · ${(view.related || []).length} related, ${(view.tasks || []).length} tasks, ` +
          `${(view.decisions || []).length} decisions, ` +
          `${(view.turns || []).length} turns, ${(view.documents || []).length} documents`));
      status(`entity ${e.name || name}`);
    });
  }

  // ------------------------------------------------------------------ context package
  function renderPackage(pkg, trace) {
    const view = $("context-view");
    const parts = [];
    parts.push(el("h2", {}, `Context ${pkg.context_id || ""}`));
    const meta = el("dl", { class: "kv" },
      el("dt", {}, "session"), el("dd", {}, pkg.session_id || ""),
      el("dt", {}, "namespace"), el("dd", {}, pkg.namespace || ""),
      el("dt", {}, "created"), el("dd", {}, pkg.created_at || ""),
      el("dt", {}, "user message"), el("dd", {}, (pkg.user_message || {}).content || ""));
    parts.push(meta);

    const budget = ((pkg.constraints || {}).token_budget) || (trace && trace.token_budget);
    if (budget) {
      const pct = budget.limit ? Math.min(100, (100 * budget.used_estimate) / budget.limit) : 0;
      parts.push(el("h3", {}, `Token budget: ${budget.used_estimate} / ${budget.limit} (${budget.counter || ""})`));
      parts.push(el("div", { class: "budget" }, el("div", { width: pct.toFixed(1) + "%" })));
      const slots = Object.entries(budget.by_slot || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
      if (slots) parts.push(el("p", { class: "hint" }, slots));
    }

    const evidence = pkg.evidence || (trace && trace.evidence) || [];
    parts.push(el("h3", {}, `Evidence (${evidence.length})`));
    const max = Math.max(1e-9, ...evidence.map((e) => e.score || 0));
    const rows = evidence.map((e) => {
      const signals = Object.entries(e.signals || {}).filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === "number" ? v.toFixed(3) : v}`).join(" ");
      return el("tr", {},
        el("td", {}, e.label || ""),
        el("td", {}, el("span", { class: "tag " + (e.source || "") }, e.source || "")),
        el("td", {}, e.mode || ""),
        el("td", { class: "num" }, el("span", { class: "score", width: `${(40 * (e.score || 0)) / max}px` }),
          fmtScore(e.score)),
        el("td", {}, el("strong", {}, short(e.title || e.source_uri, 60)),
          e.snippet ? el("div", {}, short(e.snippet, 300)) : null,
          signals ? el("div", { class: "hint" }, signals) : null));
    });
    parts.push(el("table", { class: "evidence" },
      el("colgroup", {}, ...["label", "source", "mode", "score", "evidence"].map((c) => el("col", { class: "c-" + c }))),
      el("thead", {}, el("tr", {}, ...["", "source", "mode", "score", "evidence"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)));

    const explained = evidence.filter((e) => ((e.provenance || {}).path || []).length >= 3);
    if (explained.length) {
      parts.push(el("h3", {}, `Explained paths (${explained.length}), highlighted in the graph`));
      parts.push(el("ul", { class: "paths" }, ...explained.map((e) =>
        el("li", {}, el("strong", {}, e.label || ""), " ", e.provenance.path.join(" → ")))));
    }
    highlightPaths(evidence);

    const debug = pkg.debug || {};
    const dropped = (trace && trace.dropped) || debug.dropped || [];
    if (dropped.length) {
      parts.push(el("h3", {}, `Dropped (${dropped.length})`));
      parts.push(el("pre", {}, dropped.slice(0, 30).map((d) => JSON.stringify(d)).join("\n")));
    }
    const timings = (trace && trace.timings_ms) || debug.timings_ms;
    if (timings && Object.keys(timings).length) {
      parts.push(el("h3", {}, "Timings (ms)"));
      parts.push(el("p", {}, Object.entries(timings).map(([k, v]) => `${k} ${v}`).join(" · ")));
    }
    const planner = (trace && trace.planner) || debug.planner;
    if (planner && Object.keys(planner).length) {
      parts.push(el("h3", {}, "Planner"));
      parts.push(el("pre", {}, JSON.stringify(planner, null, 2)));
    }
    if (pkg.working_summary) {
      parts.push(el("h3", {}, "Working summary"));
      parts.push(el("pre", {}, pkg.working_summary));
    }
    clear(view, ...parts);
  }

  function asObject(v) {
    if (typeof v === "string") { try { return JSON.parse(v); } catch (_) { return null; } }
    return v || null;
  }

  function loadTrace(id) {
    return load("context-id", id, "context", async () => {
      const t = await api("GET", "/v1/traces/context/" + encodeURIComponent(id));
      const pkg = asObject(t.package) || { context_id: t.context_id, session_id: t.session_id,
        created_at: t.created_at, user_message: (asObject(t.request) || {}) };
      if (!pkg.user_message || typeof pkg.user_message.content !== "string") {
        const req = asObject(t.request) || {};
        pkg.user_message = { content: req.user_message || "" };
      }
      renderPackage(pkg, asObject(t.trace));
      status(`context ${id}`);
    });
  }

  async function compose(sessionId, message) {
    status("composing…");
    try {
      const pkg = await api("POST", "/v1/compose_context", { session_id: sessionId, user_message: message });
      $("context-id").value = pkg.context_id;
      renderPackage(pkg, null);
      status(`composed ${pkg.context_id}`);
    } catch (err) {
      status(err.message, true);
    }
  }

  // ------------------------------------------------------------------ wiring
  function init() {
    $("token").value = sessionStorage.getItem(TOKEN_KEY) || "";
    $("namespace").value = sessionStorage.getItem(NS_KEY) || "";
    $("auth-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const token = $("token").value.trim();
      const ns = $("namespace").value.trim();
      token ? sessionStorage.setItem(TOKEN_KEY, token) : sessionStorage.removeItem(TOKEN_KEY);
      ns ? sessionStorage.setItem(NS_KEY, ns) : sessionStorage.removeItem(NS_KEY);
      status(token ? "token set for this tab" : "no token");
    });
    $("entity-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      loadEntity($("entity-name").value.trim());
    });
    $("trace-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      loadTrace($("context-id").value.trim());
    });
    $("compose-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      compose($("session-id").value.trim(), $("user-message").value.trim());
    });

    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    if (params.get("token")) {
      sessionStorage.setItem(TOKEN_KEY, params.get("token"));
      $("token").value = params.get("token");
      params.delete("token");
      const rest = params.toString();
      history.replaceState(null, "", window.location.pathname + window.location.search + (rest ? "#" + rest : ""));
    }
    if (params.get("ns")) {
      sessionStorage.setItem(NS_KEY, params.get("ns"));
      $("namespace").value = params.get("ns");
    }
    if (params.get("entity")) loadEntity(params.get("entity"));
    if (params.get("context")) loadTrace(params.get("context"));
    if (!window.cytoscape) status("cytoscape failed to load", true);
  }

  window.addEventListener("resize", () => { if (cy) { cy.resize(); cy.fit(undefined, 40); } });
  document.addEventListener("DOMContentLoaded", init);
})();
