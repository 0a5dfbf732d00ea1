/* images.c: bin/thin-images, one of the test images of the thinning as a PBM
 * file (thin/draw.h; scripts/heymann-images makes all three). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "thin/draw.h"

#define fail(...) parse_fail("thin-images", __VA_ARGS__)
#define FONT_MAX (4L << 20)

static void usage(FILE *f)
{
    fprintf(f,
"usage: thin-images SCENE -o OUT.pbm [options]\n"
"\n"
"Draws a test image of the thinning (docs/thin.md) as a raw PBM (P4). SCENE:\n"
"  figures   filled rectangles, discs, triangles and rings: thick ones in\n"
"            the middle rows, thin ones at the top and the bottom\n"
"  letters   a font specimen: thick text, a PSF console font's glyphs\n"
"            enlarged, the alphabet small above and below it (needs --font)\n"
"  boyball   a boy kicking a ball into the air, a silhouette\n"
"\n"
"options:\n"
"  -o, --out FILE        the image ('-' = stdout)\n"
"  -c, --copies N        N copies side by side (1..64, default 1): longer rows,\n"
"                        the same iterations\n"
"  -z, --zoom Z          lengths times Z (0.01..4, default 1): the iterations\n"
"                        change about as Z does\n"
"  -f, --font FILE       a PSF font, not compressed ('-' = stdin), for letters\n"
"  -t, --text TEXT       the letters' text (default TILE)\n"
"  -q, --quiet           no summary line\n"
"  -h, --help            this help\n"
"exit status: 0 done; 1 an output that cannot be written, standard output\n"
"included (said; no part of a file is left); 2 a bad option or font\n");
}

/* Reads a whole file of at most FONT_MAX bytes; NULL with msg. */
static unsigned char *slurp(const char *path, size_t *len, char *msg, size_t mlen)
{
    int std = strcmp(path, "-") == 0;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(msg, mlen, "font '%s': %s", quote(path), strerror(errno));
        return NULL;
    }
    unsigned char *buf = malloc(FONT_MAX + 1);
    size_t n = buf ? fread(buf, 1, FONT_MAX + 1, f) : 0;
    int err = ferror(f);
    if (!std)
        fclose(f);
    if (!buf || err || n > FONT_MAX) {
        snprintf(msg, mlen, "font '%s': %s", quote(path), !buf ? "out of memory"
                 : err ? "read error" : "over 4 MiB: not a console font");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"copies", required_argument, NULL, 'c'},
        {"zoom", required_argument, NULL, 'z'},
        {"font", required_argument, NULL, 'f'},
        {"text", required_argument, NULL, 't'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    const char *out = NULL, *fontpath = NULL, *text = NULL;
    int copies = 1, quiet = 0, c;
    double zoom = 1.0;
    closeout_init("thin-images");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:c:z:f:t:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'c':
            if (parse_int_in(optarg, 1, 64, &copies) != 0)
                return fail("--copies '%s' must be an integer in [1, 64]", quote(optarg));
            break;
        case 'z':
            if (parse_double(optarg, &zoom) != 0 || !(zoom >= 0.01 && zoom <= 4))
                return fail("--zoom '%s' must be a number in [0.01, 4]", quote(optarg));
            break;
        case 'f': fontpath = optarg; break;
        case 't': text = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("thin-images", c, argv);
        }
    }
    if (optind >= argc)
        return fail("no scene: figures, letters or boyball (try --help)");
    if (argc - optind > 1)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind + 1]));
    const char *scene = argv[optind];
    if (!out)
        return fail("no output: -o OUT.pbm");
    if (closeout_output("--out", out, 0))              /* before the work */
        return 1;

    char msg[512];
    thin_font font, *fp = NULL;
    if (fontpath) {
        size_t len;
        unsigned char *data = slurp(fontpath, &len, msg, sizeof msg);
        if (!data)
            return fail("%s", msg);
        int rc = thin_font_load(&font, data, len, msg, sizeof msg);
        free(data);
        if (rc != 0)
            return fail("font '%s': %s", quote(fontpath), msg);
        fp = &font;
    }
    thin_image im;
    int rc = thin_draw(&im, scene, zoom, copies, fp, text, msg, sizeof msg);
    if (fp)
        thin_font_free(fp);
    if (rc != 0)
        return fail("%s", msg);
    int status = 0;
    if (thin_pbm_write(&im, out, 0, msg, sizeof msg) != 0) {
        fail("%s", msg);
        status = 1;
    }
    else if (!quiet)
        fprintf(strcmp(out, "-") == 0 ? stderr : stdout, "%s: %d x %d, %lld pixels\n",
                scene, im.width, im.height, thin_image_count(&im));
    thin_image_free(&im);
    return status;
}
