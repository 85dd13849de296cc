#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so encoding.h would include the system's ICU headers, which
// clash with the copy Foundation carries. Nothing here touches the ICU converter fields that
// depend on it; only pointers to that struct pass through.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

// The libxml2 functions the statement readers call. They are looked up in the shared library
// when the first XML statement is read instead of being linked: Debian's libxml2 links ICU,
// whose loading and data would cost every `tally` command, `tally add` included, its start-up.
#define TALLY_XML_FUNCTIONS(X) \
    X(xmlReaderForIO) X(xmlFreeTextReader) X(xmlTextReaderRead) X(xmlTextReaderNodeType) \
    X(xmlTextReaderConstLocalName) X(xmlTextReaderConstNamespaceUri) X(xmlTextReaderConstValue) \
    X(xmlTextReaderIsEmptyElement) X(xmlTextReaderGetParserLineNumber) X(xmlTextReaderCurrentNode) X(xmlGetLineNo) \
    X(xmlTextReaderSetStructuredErrorHandler) X(xmlSetGenericErrorFunc) X(xmlSetStructuredErrorFunc)

typedef struct TallyXML {
#define TALLY_XML_FIELD(name) __typeof__(&name) _Nonnull name;
    TALLY_XML_FUNCTIONS(TALLY_XML_FIELD)
#undef TALLY_XML_FIELD
} TallyXML;

/// The first error libxml2 reported while reading one document, and its line.
typedef struct TallyXMLError {
    int failed;
    int line;
    char message[256];
} TallyXMLError;

/// Records the first error (warnings are ignored) into the `TallyXMLError` passed as `context`;
/// libxml2 would otherwise print it.
static inline void tally_xml_record_error(void *_Nullable context, xmlErrorPtr _Nullable error) {
    TallyXMLError *record = (TallyXMLError *)context;
    if (record == NULL || error == NULL || error->level < XML_ERR_ERROR || record->failed) return;
    record->failed = 1;
    record->line = error->line;
    snprintf(record->message, sizeof record->message, "%s", error->message != NULL ? error->message : "malformed XML");
    size_t length = strlen(record->message);
    while (length > 0 && (record->message[length - 1] == '\n' || record->message[length - 1] == ' ')) {
        record->message[--length] = '\0';
    }
}

/// Swallows what libxml2 reports outside a reader (it would print to standard error).
static inline void tally_xml_silence(void *_Nullable context, const char *_Nullable format, ...) {
    (void)context;
    (void)format;
}

static inline void tally_xml_silence_structured(void *_Nullable context, xmlErrorPtr _Nullable error) {
    (void)context;
    (void)error;
}

/// Loads libxml2 from the library `name`, else `fallback`, into `xml`; returns NULL, or what went
/// wrong: when neither loads, why `name` did not. Not thread-safe: call it once.
static inline const char *_Nullable tally_xml_load(TallyXML *_Nonnull xml, const char *_Nonnull name, const char *_Nonnull fallback) {
    static char reason[512];
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // The fallback's own failure would name a file only development packages install.
        const char *error = dlerror();
        snprintf(reason, sizeof reason, "%s", error != NULL ? error : name);
        library = dlopen(fallback, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) return reason;
    }
#define TALLY_XML_LOOKUP(name) \
    if ((*(void **)&xml->name = dlsym(library, #name)) == NULL) return dlerror();
    TALLY_XML_FUNCTIONS(TALLY_XML_LOOKUP)
#undef TALLY_XML_LOOKUP
    return NULL;
}

/// Starts a reader over `read`, with the options the statement readers allow: no network, and
/// no entity substitution, DTD loading or default attributes, nor the lifted limits of
/// XML_PARSE_HUGE. Errors go to `error`.
static inline xmlTextReaderPtr _Nullable tally_xml_reader(
    const TallyXML *_Nonnull xml, xmlInputReadCallback _Nonnull read, void *_Nullable context, TallyXMLError *_Nonnull error
) {
    // Errors outside the reader's own handler go nowhere rather than to standard error; the
    // handlers are the thread's own, so they are set on the thread that reads.
    xml->xmlSetGenericErrorFunc(NULL, tally_xml_silence);
    xml->xmlSetStructuredErrorFunc(NULL, tally_xml_silence_structured);
    xmlTextReaderPtr reader = xml->xmlReaderForIO(read, NULL, context, NULL, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    if (reader != NULL) xml->xmlTextReaderSetStructuredErrorHandler(reader, tally_xml_record_error, error);
    return reader;
}
