/*
 * tools/layout_html.h - `softmma layout ... --html FILE`: any grid of
 * softmma/grid.h as one self-contained, explorable web page, and the
 * atomic file writing it shares with --svg.
 */
#ifndef SOFTMMA_LAYOUT_HTML_H
#define SOFTMMA_LAYOUT_HTML_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <softmma/grid.h>
#include <softmma/scale_layout.h>

/* The most cells a page holds (a larger grid is refused: a browser would
 * crawl through it). */
#define CLI_HTML_MAX_CELLS (1u << 17)

/* Writes something into an open stream; ctx is the thing written. */
typedef void (*cli_write_fn)(FILE *f, const void *ctx);

/* Writes with write(f, ctx) into a new file beside path, then renames it
 * over path, so that a reader never sees half a file and an error leaves
 * path as it was; path "-" writes to stdout.  opt names the option in
 * messages ("--svg").  CLI_OK, or CLI_USAGE after printing the error. */
int cli_write_file_atomic(const char *opt, const char *path, cli_write_fn write,
                          const void *ctx);

/* The fill of the cells of lane (or thread) owner: 32 light colours, thread
 * t taking that of lane t % 32; a light grey for SMMA_GRID_NOBODY
 * (tools/cmd_layout.c, shared by the SVG picture and the page). */
void cli_lane_colour(unsigned owner, char *out, size_t n);

/* The holder of the element in cell (row, col) of grid g in words, as
 * `softmma layout ... --at` prints them ("lane 20, register 2, element 1",
 * "CTA 1, TMEM lane 70, column 8"), into buf (tools/cmd_layout.c).  False,
 * buf untouched, where g answers no queries or no one holds the cell. */
bool cli_cell_holder_words(const smma_grid *g, unsigned row, unsigned col, char *buf,
                           size_t n);

/* The word for what a cell's owner is in grid g: "lane" or "thread" when
 * its legend starts with T<lane> or T<thread>, "TMEM lane" when with
 * L<TMEM lane>, "copy" when its description says "owner = copy", "16-byte
 * line" for a scale grid, "16-byte chunk" for a shared-memory tile (layout
 * smem), else "owner". */
const char *cli_grid_group_word(const smma_grid *g);

/* Writes grid g as one HTML page into f: inline style and script, no
 * reference to anything outside it, the cells as a compact JSON object.
 * Pointing at a cell shows its holder (its label) and highlights every cell
 * of the same owner; pointing at an owner in the legend, choosing it in the
 * list, or the keys n/p highlight an owner's cells and list them.  group is
 * the word for an owner shown on the page (NULL: cli_grid_group_word). */
void cli_grid_write_html(FILE *f, const smma_grid *g, const char *group);

/* cli_grid_write_html into path ("-": stdout) with cli_write_file_atomic,
 * for option --html.  Refuses a grid of more than CLI_HTML_MAX_CELLS cells.
 * CLI_OK, or CLI_USAGE after printing the error. */
int cli_grid_html(const char *path, const smma_grid *g, const char *group);

/* Fills *g with the grid of scale layout l (R rows, K elements per row,
 * one scale per vec), which `layout scale` draws with --svg and --html:
 * one row per row of the scale matrix, one column per scale column kb;
 * each cell labelled with the byte offset of that scale in the stored
 * array and owned by its 16-byte line (offset / 16).  s is the shape
 * smma_scale_layout_shape returned for the same arguments.  CLI_OK, or
 * CLI_USAGE after printing the error when the grid would exceed
 * CLI_HTML_MAX_CELLS cells. */
int cli_scale_grid(smma_scale_layout l, const smma_scale_shape *s, smma_grid *g);

#endif /* SOFTMMA_LAYOUT_HTML_H */
