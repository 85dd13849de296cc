#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <gd.h>

// The libgd functions Tally calls. They are looked up in the shared library when the first
// picture is drawn instead of being linked: libgd loads about fifty libraries (HEIF, AVIF, TIFF,
// WebP decoders, libde265's tables) whose loading and static initializers cost every command,
// `tally add` included, 7 ms before its first statement.
#define TALLY_GD_FUNCTIONS(X) \
    X(gdImageCreateTrueColor) X(gdImageDestroy) X(gdImageAlphaBlending) X(gdImageFilledRectangle) \
    X(gdImageSetPixel) X(gdImageSetThickness) X(gdImageLine) X(gdImageFilledPolygon) \
    X(gdImageStringFTEx) X(gdImagePngPtrEx) X(gdFree) X(gdFontCacheSetup) X(gdFTUseFontConfig)

typedef struct TallyGD {
#define TALLY_GD_FIELD(name) __typeof__(&name) _Nonnull name;
    TALLY_GD_FUNCTIONS(TALLY_GD_FIELD)
#undef TALLY_GD_FIELD
} TallyGD;

/// Loads libgd from the library `name`, else `fallback`, into `gd`; returns NULL, or what went
/// wrong: when neither loads, why `name` did not. Not thread-safe: call it once.
static inline const char *_Nullable tally_gd_load(TallyGD *_Nonnull gd, const char *_Nonnull name, const char *_Nonnull fallback) {
    static char reason[512];
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // The fallback's own failure would name a file only development packages install.
        const char *error = dlerror();
        snprintf(reason, sizeof reason, "%s", error != NULL ? error : name);
        library = dlopen(fallback, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) return reason;
    }
#define TALLY_GD_LOOKUP(name) \
    if ((*(void **)&gd->name = dlsym(library, #name)) == NULL) return dlerror();
    TALLY_GD_FUNCTIONS(TALLY_GD_LOOKUP)
#undef TALLY_GD_LOOKUP
    return NULL;
}
