/*
 * tools/layout_html.c - `softmma layout ... --html FILE`: a grid of
 * softmma/grid.h as one web page in which pointing at a cell shows its
 * holder and pointing at an owner (a lane, a thread) shows its cells.
 *
 * The page is self-contained: the style and the script are inline, it
 * loads nothing, and the grid travels as one JSON object in a
 * <script type="application/json"> element:
 *   {"name", "what", "legend", "rowAxis", "colAxis", "group",
 *    "rows", "cols", "row0", "col0",
 *    "pal": the 32 lane colours,
 *    "owner": rows * cols owners, row by row (-1: nobody),
 *    "label": rows * cols labels,
 *    "words": rows * cols holders in words, as --at names them ("" for
 *             none), only for a layout that answers --at}
 * from which the script builds the table.  The script takes a fragment
 * "#t=N" (highlight owner N) or "#cell=R,C" (point at the cell of row R,
 * column C as numbered on the page), so that a link can show one owner.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "layout_html.h"

int
cli_write_file_atomic(const char *opt, const char *path, cli_write_fn write, const void *ctx)
{
    size_t n = strlen(path) + 32;
    char *tmp;
    FILE *f = NULL;
    unsigned i;
    int rc = CLI_OK, bad;

    if (strcmp(path, "-") == 0) {
        write(stdout, ctx);
        return CLI_OK;
    }
    tmp = malloc(n);
    if (tmp == NULL)
        return cli_error("out of memory");
    for (i = 0; i < 1000; i++) {
        snprintf(tmp, n, "%s.%u.tmp", path, i);
        errno = 0;
        f = fopen(tmp, "wx");
        if (f != NULL || errno != EEXIST)
            break;
    }
    if (f == NULL) {
        rc = cli_error("%s %s: cannot create %s: %s", opt, path, tmp, strerror(errno));
        free(tmp);
        return rc;
    }
    write(f, ctx);
    bad = ferror(f);
    if (fclose(f) != 0 || bad)
        rc = cli_error("%s %s: cannot write %s", opt, path, tmp);
    else if (rename(tmp, path) != 0)
        rc = cli_error("%s %s: cannot rename %s to it: %s", opt, path, tmp, strerror(errno));
    if (rc != CLI_OK)
        remove(tmp);
    free(tmp);
    return rc;
}

const char *
cli_grid_group_word(const smma_grid *g)
{
    if (strncmp(g->legend, "T<lane>", 7) == 0)
        return "lane";
    if (strncmp(g->legend, "T<thread>", 9) == 0)
        return "thread";
    if (strncmp(g->legend, "L<TMEM lane>", 12) == 0)
        return "TMEM lane";
    if (strstr(g->what, "owner = copy") != NULL)
        return "copy";
    if (strncmp(g->name, "scale ", 6) == 0)
        return "16-byte line";
    if (strncmp(g->name, "smem ", 5) == 0)
        return "16-byte chunk";
    return "owner";
}

/* ------------------------------------------------------------ the page */

/* Writes s as a JSON string.  '<', '>' and '&' are escaped too, so that no
 * text can close the <script> element that holds the data. */
static void
json_string(FILE *f, const char *s)
{
    const unsigned char *p;

    putc('"', f);
    for (p = (const unsigned char *) s; *p != '\0'; p++)
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else
            putc(*p, f);
    putc('"', f);
}

/* Writes s as HTML text. */
static void
html_text(FILE *f, const char *s)
{
    for (; *s != '\0'; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        default: putc(*s, f); break;
        }
}

/* "key":"value", */
static void
json_field(FILE *f, const char *key, const char *value)
{
    fprintf(f, "\"%s\":", key);
    json_string(f, value);
    putc(',', f);
}

/* ,"words":[...]: the holder of each cell in words ("" for none), where
 * the layout answers the queries of --at; nothing for one that does not. */
static void
json_words(FILE *f, const smma_grid *g)
{
    char words[128];
    unsigned row, col;

    if (g->holder == NULL)
        return;
    fputs(",\n\"words\":[", f);
    for (row = 0; row < g->rows; row++) {
        for (col = 0; col < g->cols; col++) {
            if (row + col > 0)
                putc(',', f);
            if (!cli_cell_holder_words(g, row, col, words, sizeof(words)))
                words[0] = '\0';
            json_string(f, words);
        }
        putc('\n', f);
    }
    putc(']', f);
}

static void
json_data(FILE *f, const smma_grid *g, const char *group)
{
    smma_grid_cell c;
    char fill[16];
    unsigned row, col, lane;

    putc('{', f);
    json_field(f, "name", g->name);
    json_field(f, "what", g->what);
    json_field(f, "legend", g->legend);
    json_field(f, "rowAxis", g->row_axis);
    json_field(f, "colAxis", g->col_axis);
    json_field(f, "group", group);
    fprintf(f, "\"rows\":%u,\"cols\":%u,\"row0\":%u,\"col0\":%u,\n\"pal\":[", g->rows, g->cols,
            g->row0, g->col0);
    for (lane = 0; lane < 32; lane++) {
        cli_lane_colour(lane, fill, sizeof(fill));
        fprintf(f, "%s\"%s\"", lane > 0 ? "," : "", fill);
    }
    fputs("],\n\"owner\":[", f);
    for (row = 0; row < g->rows; row++)
        for (col = 0; col < g->cols; col++) {
            g->cell(g, row, col, &c);
            if (row + col > 0)
                putc(',', f);
            if (c.owner == SMMA_GRID_NOBODY)
                fputs("-1", f);
            else
                fprintf(f, "%u", c.owner);
        }
    fputs("],\n\"label\":[", f);
    for (row = 0; row < g->rows; row++) {
        for (col = 0; col < g->cols; col++) {
            g->cell(g, row, col, &c);
            if (row + col > 0)
                putc(',', f);
            json_string(f, c.label);
        }
        putc('\n', f);
    }
    putc(']', f);
    json_words(f, g);
    putc('}', f);
}

static const char page_style[] =
    "body{font:14px sans-serif;margin:0 12px 12px}\n"
    "h1{font-size:17px;margin:10px 0 2px}\n"
    "p{margin:2px 0}\n"
    "#bar{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ccc;"
    "z-index:1}\n"
    "#status{font:13px monospace;min-height:1.3em}\n"
    "#cells{font:12px monospace;color:#333;max-height:4.2em;overflow:auto}\n"
    "#chips button{font:11px monospace;min-width:2.6em;margin:1px;padding:1px 2px;"
    "border:1px solid #888;cursor:pointer}\n"
    "#chips button.on{outline:2px solid #000;font-weight:bold}\n"
    "#grid{border-collapse:collapse;margin-top:8px}\n"
    "#grid:focus{outline:1px dotted #888}\n"
    "#grid th{font:11px monospace;color:#555;padding:1px 3px}\n"
    "#grid td{font:11px monospace;border:1px solid #999;padding:2px 3px;text-align:center;"
    "white-space:nowrap;cursor:default}\n"
    "#grid td.none{background:#f4f4f4;color:#999}\n"
    "#grid.lit td{opacity:.3}\n"
    "#grid.lit td.mine{opacity:1;font-weight:bold;outline:2px solid #000;outline-offset:-2px}\n"
    "#grid td.cur,#grid.lit td.cur{opacity:1;outline:3px solid #c00;outline-offset:-3px}\n"
    "kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px;font-size:12px}\n";

/* The explorer.  Cells are found by index i = row * cols + col (rows and
 * columns counted from 0 in the grid, shown from row0 and col0). */
static const char page_script[] =
    "(function () {\n"
    "\"use strict\";\n"
    "var D = JSON.parse(document.getElementById(\"data\").textContent);\n"
    "var R = D.rows, C = D.cols, G = D.group;\n"
    "var grid = document.getElementById(\"grid\"), status = document.getElementById(\"status\");\n"
    "var cells = document.getElementById(\"cells\"), pick = document.getElementById(\"pick\");\n"
    "var chips = document.getElementById(\"chips\");\n"
    "var td = [], byOwner = {}, owners = [], chipOf = {};\n"
    "var cur = -1, lit = null, pinned = null, i, r, c, o, e, row;\n"
    "var css = \"\";\n"
    "for (i = 0; i < 32; i++) css += \".p\" + i + \"{background:\" + D.pal[i] + \"}\\n\";\n"
    "e = document.createElement(\"style\"); e.textContent = css; document.head.appendChild(e);\n"
    "row = grid.createTHead().insertRow();\n"
    "e = document.createElement(\"th\"); e.textContent = D.rowAxis + \"\\\\\" + D.colAxis;\n"
    "row.appendChild(e);\n"
    "for (c = 0; c < C; c++) {\n"
    "  e = document.createElement(\"th\"); e.textContent = D.col0 + c; row.appendChild(e);\n"
    "}\n"
    "var body = grid.createTBody();\n"
    "for (r = 0; r < R; r++) {\n"
    "  row = body.insertRow();\n"
    "  e = document.createElement(\"th\"); e.textContent = D.row0 + r; row.appendChild(e);\n"
    "  for (c = 0; c < C; c++) {\n"
    "    i = r * C + c; o = D.owner[i];\n"
    "    e = row.insertCell(); e.textContent = D.label[i]; td.push(e);\n"
    "    if (o < 0) { e.className = \"none\"; continue; }\n"
    "    e.className = \"p\" + (o % 32);\n"
    "    if (!byOwner.hasOwnProperty(o)) { byOwner[o] = []; owners.push(o); }\n"
    "    byOwner[o].push(i);\n"
    "  }\n"
    "}\n"
    "owners.sort(function (a, b) { return a - b; });\n"
    "owners.forEach(function (o) {\n"
    "  var opt = document.createElement(\"option\");\n"
    "  opt.value = o; opt.textContent = G + \" \" + o + \" (\" + byOwner[o].length + \")\";\n"
    "  pick.appendChild(opt);\n"
    "  if (owners.length > 512) return;\n"
    "  var b = document.createElement(\"button\");\n"
    "  b.type = \"button\"; b.className = \"p\" + (o % 32); b.textContent = o; b.dataset.o = o;\n"
    "  chips.appendChild(b); chipOf[o] = b;\n"
    "});\n"
    "function where(i) {\n"
    "  return D.rowAxis + \" \" + (D.row0 + Math.floor(i / C)) + \", \" + D.colAxis + \" \" +\n"
    "    (D.col0 + i % C);\n"
    "}\n"
    "function ownerOf(i) { return D.owner[i] < 0 ? null : D.owner[i]; }\n"
    /* The holder of cell i in words and its owner, the owner once where
     * the words start with it ("lane 5, register 2, element 1"). */
    "function holder(i, o) {\n"
    "  var w = D.words ? D.words[i] : \"\", g = o === null ? \"held by no \" + G : G + \" \" + o;\n"
    "  if (w === \"\") return g;\n"
    "  if (o !== null && (w === g || w.indexOf(g + \",\") === 0)) return w;\n"
    "  return w + \"; \" + g;\n"
    "}\n"
    /* Highlights the cells of owner o (null: none) and lists them. */
    "function show(o) {\n"
    "  if (lit !== null) {\n"
    "    byOwner[lit].forEach(function (i) { td[i].classList.remove(\"mine\"); });\n"
    "    if (chipOf[lit]) chipOf[lit].classList.remove(\"on\");\n"
    "  }\n"
    "  lit = o !== null && byOwner.hasOwnProperty(o) ? o : null;\n"
    "  grid.classList.toggle(\"lit\", lit !== null);\n"
    "  if (lit === null) { cells.textContent = \"\"; return; }\n"
    "  var list = byOwner[lit], n = Math.min(list.length, 256), s = [], k;\n"
    "  list.forEach(function (i) { td[i].classList.add(\"mine\"); });\n"
    "  if (chipOf[lit]) chipOf[lit].classList.add(\"on\");\n"
    "  for (k = 0; k < n; k++) s.push(\"(\" + where(list[k]) + \") \" + D.label[list[k]]);\n"
    "  cells.textContent = G + \" \" + lit + \" holds \" + list.length +\n"
    "    (list.length === 1 ? \" cell: \" : \" cells: \") + s.join(\"; \") +\n"
    "    (list.length > n ? \"; ... \" + (list.length - n) + \" more\" : \"\");\n"
    "}\n"
    "function setCur(i) {\n"
    "  if (cur >= 0) td[cur].classList.remove(\"cur\");\n"
    "  cur = i;\n"
    "  if (cur >= 0) td[cur].classList.add(\"cur\");\n"
    "}\n"
    /* The pointer on cell i: its holder in the status line, its owner lit. */
    "function point(i) {\n"
    "  var o = ownerOf(i);\n"
    "  setCur(i);\n"
    "  status.textContent = where(i) + \": \" + D.label[i] + \" (\" + holder(i, o) + \")\";\n"
    "  show(o);\n"
    "}\n"
    "function idle() {\n"
    "  setCur(-1);\n"
    "  status.textContent = pinned === null ?\n"
    "    \"Point at a cell to see its holder, at a \" + G + \" to see its cells.\" :\n"
    "    G + \" \" + pinned + \" (chosen; Esc clears)\";\n"
    "  show(pinned);\n"
    "}\n"
    "function pin(o) {\n"
    "  pinned = o !== null && byOwner.hasOwnProperty(o) ? o : null;\n"
    "  pick.value = pinned === null ? \"\" : String(pinned);\n"
    "  idle();\n"
    "}\n"
    "function cellIndex(t) {\n"
    "  var e = t && t.closest ? t.closest(\"td\") : null;\n"
    "  if (!e || !grid.contains(e)) return -1;\n"
    "  return (e.parentNode.rowIndex - 1) * C + e.cellIndex - 1;\n"
    "}\n"
    "grid.addEventListener(\"pointerover\", function (ev) {\n"
    "  var i = cellIndex(ev.target);\n"
    "  if (i >= 0) point(i);\n"
    "});\n"
    "grid.addEventListener(\"pointerleave\", idle);\n"
    "grid.addEventListener(\"click\", function (ev) {\n"
    "  var i = cellIndex(ev.target), o = i >= 0 ? ownerOf(i) : null;\n"
    "  if (i >= 0) { pin(o === pinned ? null : o); point(i); }\n"
    "});\n"
    "chips.addEventListener(\"pointerover\", function (ev) {\n"
    "  var o = ev.target.dataset ? ev.target.dataset.o : undefined;\n"
    "  if (o === undefined) return;\n"
    "  o = Number(o); setCur(-1);\n"
    "  status.textContent = G + \" \" + o;\n"
    "  show(o);\n"
    "});\n"
    "chips.addEventListener(\"pointerleave\", idle);\n"
    "chips.addEventListener(\"click\", function (ev) {\n"
    "  var o = ev.target.dataset ? ev.target.dataset.o : undefined;\n"
    "  if (o !== undefined) pin(Number(o) === pinned ? null : Number(o));\n"
    "});\n"
    "pick.addEventListener(\"change\", function () {\n"
    "  pin(pick.value === \"\" ? null : Number(pick.value));\n"
    "});\n"
    /* Keys: arrows move the pointed cell, n / p choose the next or previous
     * owner, Esc clears. */
    "document.addEventListener(\"keydown\", function (ev) {\n"
    "  var k = ev.key, j, d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -C, ArrowDown: C };\n"
    "  if (ev.target === pick || ev.altKey || ev.ctrlKey || ev.metaKey) return;\n"
    "  if (d.hasOwnProperty(k)) {\n"
    "    j = cur < 0 ? 0 : cur + d[k];\n"
    "    if ((k === \"ArrowLeft\" || k === \"ArrowRight\") && Math.floor(j / C) !== Math.floor(cur / C) && cur >= 0) return;\n"
    "    if (j < 0 || j >= R * C) return;\n"
    "    point(j); td[j].scrollIntoView({ block: \"nearest\", inline: \"nearest\" });\n"
    "  } else if (k === \"n\" || k === \"p\") {\n"
    "    j = pinned === null ? (k === \"n\" ? 0 : owners.length - 1) :\n"
    "      owners.indexOf(pinned) + (k === \"n\" ? 1 : -1);\n"
    "    pin(owners[(j + owners.length) % owners.length]);\n"
    "  } else if (k === \"Escape\") {\n"
    "    pin(null);\n"
    "  } else return;\n"
    "  ev.preventDefault();\n"
    "});\n"
    /* #t=N chooses owner N; #cell=R,C points at a cell. */
    "var m = /^#t=(\\d+)$/.exec(location.hash), q = /^#cell=(\\d+),(\\d+)$/.exec(location.hash);\n"
    "if (m) pin(Number(m[1])); else idle();\n"
    "if (q) {\n"
    "  r = Number(q[1]) - D.row0; c = Number(q[2]) - D.col0;\n"
    "  if (r >= 0 && r < R && c >= 0 && c < C) point(r * C + c);\n"
    "}\n"
    "}());\n";

static void
html_page(FILE *f, const smma_grid *g, const char *group)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_text(f, g->name);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<div id=\"bar\">\n<h1>", page_style);
    html_text(f, g->name);
    fputs("</h1>\n<p>", f);
    html_text(f, g->what);
    if (strstr(g->what, "(rows") == NULL)
        fprintf(f, " (rows %s, cols %s)", g->row_axis, g->col_axis);
    fputs("; cell ", f);
    html_text(f, g->legend);
    fputs(".</p>\n<p><label>", f);
    html_text(f, group);
    fputs(": <select id=\"pick\"><option value=\"\">(none)</option></select></label>\n"
          "<kbd>n</kbd>/<kbd>p</kbd> next/previous, <kbd>Esc</kbd> none, arrows move; "
          "click a cell to keep its ", f);
    html_text(f, group);
    fputs(".</p>\n<div id=\"chips\"></div>\n<div id=\"status\"></div>\n<div id=\"cells\"></div>\n"
          "</div>\n<table id=\"grid\" tabindex=\"0\"></table>\n"
          "<script type=\"application/json\" id=\"data\">", f);
    json_data(f, g, group);
    fprintf(f, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", page_script);
}

struct html_job {
    const smma_grid *g;
    const char *group;
};

static void
html_job_write(FILE *f, const void *ctx)
{
    const struct html_job *job = ctx;

    html_page(f, job->g, job->group);
}

void
cli_grid_write_html(FILE *f, const smma_grid *g, const char *group)
{
    html_page(f, g, group != NULL ? group : cli_grid_group_word(g));
}

int
cli_grid_html(const char *path, const smma_grid *g, const char *group)
{
    struct html_job job;

    if ((unsigned long long) g->rows * g->cols > CLI_HTML_MAX_CELLS)
        return cli_error("--html %s: %u x %u cells are too many for a page (at most %u)", path,
                         g->rows, g->cols, CLI_HTML_MAX_CELLS);
    job.g = g;
    job.group = group != NULL ? group : cli_grid_group_word(g);
    return cli_write_file_atomic("--html", path, html_job_write, &job);
}

/* ------------------------------------------------------------ scale grids */

static void
scale_cell(const smma_grid *g, unsigned row, unsigned col, smma_grid_cell *out)
{
    size_t off = 0;
    smma_error err;

    /* Cannot fail: the shape was checked and (row, col) is inside it. */
    smma_scale_offset((smma_scale_layout) g->param[0], g->param[1], g->param[2], g->param[3],
                      row, col, &off, &err);
    out->owner = (unsigned) (off / 16);
    snprintf(out->label, sizeof(out->label), "%zu", off);
}

int
cli_scale_grid(smma_scale_layout l, const smma_scale_shape *s, smma_grid *g)
{
    memset(g, 0, sizeof(*g));
    if (s->kb == 0 || s->rows > CLI_HTML_MAX_CELLS / s->kb)
        return cli_error("%zu x %zu scales are too many to draw (at most %u)", s->rows,
                         s->kb, CLI_HTML_MAX_CELLS);
    snprintf(g->name, sizeof(g->name), "scale layout %s", smma_scale_layout_name(l));
    snprintf(g->row_axis, sizeof(g->row_axis), "m");
    snprintf(g->col_axis, sizeof(g->col_axis), "kb");
    snprintf(g->what, sizeof(g->what),
             "rows %zu, k %zu, vec %u -> %zu x %zu scales; padded %zu x %zu = %zu bytes",
             s->rows, s->k, s->vec, s->rows, s->kb, s->rows_pad, s->kb_pad, s->bytes);
    snprintf(g->legend, sizeof(g->legend), "<byte offset in the stored array>");
    g->rows = (unsigned) s->rows;
    g->cols = (unsigned) s->kb;
    g->copies = 1;
    g->cell = scale_cell;
    g->param[0] = (unsigned) l;
    g->param[1] = (unsigned) s->rows;
    g->param[2] = (unsigned) s->k;
    g->param[3] = s->vec;
    return CLI_OK;
}
