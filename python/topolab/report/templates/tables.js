// Sorting and filtering over the report's tables (table.sortable), which the page writes out in
// full: a click on a header (or Enter on it) sorts by that column, ascending then descending,
// by the number in a cell's data-order where the column has one (a missing value, "", first)
// and by the text shown otherwise; the filter box above a table keeps the rows that contain
// every word typed. Each table sits in a box of its own that scrolls sideways on a narrow screen.
(function () {
  "use strict";
  for (const table of document.querySelectorAll("table.sortable")) {
    const body = table.tBodies[0];
    const rows = [...body.rows];
    const wrapper = document.createElement("div");
    wrapper.className = "table-box";
    wrapper.id = table.id + "_wrapper";
    const tools = document.createElement("div");
    tools.className = "table-tools";
    const label = document.createElement("label");
    label.textContent = "Filter: ";
    const box = document.createElement("input");
    box.type = "search";
    box.setAttribute("aria-controls", table.id);
    label.appendChild(box);
    const info = document.createElement("span");
    info.className = "table-info";
    tools.append(label, info);
    const scroll = document.createElement("div");
    scroll.className = "table-scroll";
    table.parentNode.insertBefore(wrapper, table);
    wrapper.append(tools, scroll);
    scroll.appendChild(table);

    const count = () => {
      const shown = rows.filter((r) => !r.hidden).length;
      info.textContent = shown === rows.length ? `${rows.length} rows` : `${shown} rows (of ${rows.length})`;
    };
    box.addEventListener("input", () => {
      const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      for (const r of rows) {
        const text = r.textContent.toLowerCase();
        r.hidden = !words.every((w) => text.includes(w));
      }
      count();
    });

    const heads = [...table.tHead.rows[0].cells];
    heads.forEach((th, i) => {
      const numeric = rows.some((r) => r.cells[i] && r.cells[i].dataset.order !== undefined);
      const key = (r) => {
        const c = r.cells[i];
        if (!c) return numeric ? -Infinity : "";
        if (!numeric) return c.textContent.trim();
        const o = c.dataset.order;
        return o === undefined || o === "" ? -Infinity : parseFloat(o);
      };
      const sort = () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach((h) => h.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const keyed = [...body.rows].map((r) => [key(r), r]);
        keyed.sort(([a], [b]) => {
          const order = numeric ? (a < b ? -1 : a > b ? 1 : 0) : a.localeCompare(b, undefined, { numeric: true });
          return ascending ? order : -order;
        });
        body.append(...keyed.map(([, r]) => r));
      };
      th.tabIndex = 0;
      th.classList.add("sorts");
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          sort();
        }
      });
    });
    count();
  }
  document.body.dataset.tablesReady = "true";
})();
