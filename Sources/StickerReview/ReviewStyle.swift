/// The pages' style sheet and their one script: colours chosen for WCAG AA contrast (4.5:1
/// for text) in light and in dark, layouts that wrap rather than scroll sideways from 320 px up.
enum ReviewStyle {
    /// The test backgrounds every sticker is shown on, in order: (class suffix, label).
    static let backgrounds: [(id: String, label: String)] = [
        ("white", "white"), ("black", "black"), ("red", "red"), ("yellow", "yellow"),
        ("multicolor", "multicolor"), ("photo", "a photo"), ("checker", "checker")
    ]

    /// The style sheet; `photo` is the URL of the photo background (`nil`: a page without one,
    /// whose photo tiles, if any, show the plain colour).
    static func css(photo: String?) -> String {
        """
        :root{color-scheme:light dark;--fg:#1c1c1e;--muted:#545458;--bg:#ffffff;--panel:#f2f2f7;--line:#c7c7cc;--link:#0a58ca;\
        --bad:#b3261e;--bad-bg:#fde7e6;--warn:#7a4a00;--warn-bg:#fff1d6;--ok:#1b6b2f;--ok-bg:#e3f5e6}
        @media (prefers-color-scheme:dark){:root{--fg:#f2f2f7;--muted:#b0b0b8;--bg:#000000;--panel:#1c1c1e;--line:#48484a;\
        --link:#7fb2ff;--bad:#ffb4ab;--bad-bg:#410e0b;--warn:#ffd58a;--warn-bg:#3a2a00;--ok:#8fdc9c;--ok-bg:#0f2e16}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Inter,Roboto,sans-serif;overflow-wrap:anywhere}
        main{max-width:1240px;margin:0 auto;padding:16px}
        a{color:var(--link)}
        h1{font-size:1.75rem;line-height:1.2;margin:.5rem 0}
        h2{font-size:1.35rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
        h3{font-size:1.15rem;margin:0 0 .5rem}
        h4{font-size:1rem;margin:1rem 0 .25rem}
        img{max-width:100%;height:auto;display:block}
        .muted{color:var(--muted)}
        .verdict{margin:1rem 0;padding:12px 16px;border-radius:12px;font-size:1.2rem;font-weight:600}
        .verdict.pass{background:var(--ok-bg);color:var(--ok)}
        .verdict.fail{background:var(--bad-bg);color:var(--bad)}
        .error{color:var(--bad);font-weight:600}
        .warning{color:var(--warn);font-weight:600}
        table{width:100%;border-collapse:collapse;table-layout:fixed}
        th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}
        th button{font:inherit;font-weight:600;color:var(--link);background:none;border:0;padding:0;cursor:pointer;text-align:left}
        .num{text-align:right;font-variant-numeric:tabular-nums}
        @media (max-width:600px){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}        table.stack tr{display:block;padding:6px 0;border-bottom:1px solid var(--line)}table.stack td{display:block;border:0;padding:2px 0;text-align:left}        table.stack td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-weight:400}\
        table.sortable.stack thead{position:static;width:auto;height:auto;overflow:visible;clip-path:none;display:block}\
        table.sortable.stack thead tr{display:flex;flex-wrap:wrap;gap:4px 16px;border:0}table.sortable.stack th{display:block;border:0;padding:0}}
        .shots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr));gap:16px}
        figure{margin:0}
        figcaption{font-size:.9rem;color:var(--muted);margin-top:4px}
        .card{background:var(--panel);border-radius:16px;padding:16px;margin:0 0 20px}
        .card:target{outline:3px solid var(--link);outline-offset:2px}
        .backgrounds{display:grid;grid-template-columns:repeat(auto-fill,minmax(96px,1fr));gap:8px}
        .tile{aspect-ratio:1;display:flex;align-items:center;justify-content:center;border-radius:8px;padding:6px;border:1px solid var(--line)}
        .tile img{max-height:100%;width:auto}picture{display:contents}
        .bg-white{background:#fff}.bg-black{background:#000}.bg-red{background:#ff3b30}.bg-yellow{background:#fc0}
        .bg-multicolor{background:repeating-linear-gradient(45deg,#ff3b30 0 12px,#ff9500 12px 24px,#fc0 24px 36px,#34c759 36px 48px,#007aff 48px 60px,#af52de 60px 72px)}
        .bg-photo{background:#6b7f99\(photo.map { " url(\"\($0)\") center/cover" } ?? "")}
        .bg-checker{background:#fff repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
        dt{color:var(--muted)}dd{margin:0}
        ul,ol{padding-left:1.25rem;margin:.25rem 0}
        details{margin-top:.5rem}
        code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
        """
    }

    /// The index page's table sorting: a click on a column's button sorts the rows by that
    /// column (a number column by value, a name as text with its digits read as numbers: "pack 9"
    /// before "pack 10"), again to reverse; without script the table stays in pack order.
    static let sortScript = """
        document.querySelectorAll("table.sortable").forEach(function(table){
          table.querySelectorAll("th button").forEach(function(button, column){
            button.addEventListener("click", function(){
              var th = button.parentElement, ascending = th.getAttribute("aria-sort") !== "ascending";
              table.querySelectorAll("th").forEach(function(other){ other.setAttribute("aria-sort", "none"); });
              th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
              var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
              rows.sort(function(a, b){
                var x = a.cells[column].getAttribute("data-sort"), y = b.cells[column].getAttribute("data-sort");
                var order = a.cells[column].classList.contains("num") ? Number(x) - Number(y)
                  : x.localeCompare(y, undefined, {numeric: true});
                return ascending ? order : -order;
              });
              rows.forEach(function(row){ body.appendChild(row); });
            });
          });
        });
        """
}
