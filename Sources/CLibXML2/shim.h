#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// The few libxml2 functions the statement readers call. They are looked up in the shared
// library when the first XML statement is read instead of being linked: Debian's libxml2 links
// ICU, whose loading would cost every `tally` command, `tally add` included, its start-up.
//
// Their declarations are written out here rather than taken from <libxml/xmlreader.h>: those
// headers need pkg-config's include path, and SwiftPM then also links what pkg-config's `--libs`
// names (-lxml2), which is what this module exists to avoid; they would also bring the system's
// ICU headers, which clash with the copy Foundation carries. What is declared is libxml2's
// stable 2.x ABI (xmlreader.h, xmlerror.h, parser.h), unchanged from 2.9 to 2.14.

typedef unsigned char xmlChar;
typedef struct _xmlTextReader *xmlTextReaderPtr;
typedef struct _xmlNode *xmlNodePtr;

/// libxml2's `struct _xmlError`; only `message`, `level` and `line` are read.
typedef struct TallyXMLLibraryError {
    int domain;
    int code;
    char *_Nullable message;
    int level;
    char *_Nullable file;
    int line;
    char *_Nullable str1;
    char *_Nullable str2;
    char *_Nullable str3;
    int int1;
    int int2;
    void *_Nullable ctxt;
    void *_Nullable node;
} TallyXMLLibraryError;

typedef int (*TallyXMLReadCallback)(void *_Nullable context, char *_Nullable buffer, int length);
typedef int (*TallyXMLCloseCallback)(void *_Nullable context);
typedef void (*TallyXMLStructuredErrorFunc)(void *_Nullable context, TallyXMLLibraryError *_Nullable error);
typedef void (*TallyXMLGenericErrorFunc)(void *_Nullable context, const char *_Nullable format, ...);

// parser.h's xmlParserOption and xmlerror.h's xmlErrorLevel values used here.
enum {
    TALLY_XML_PARSE_NOBLANKS = 1 << 8, TALLY_XML_PARSE_NONET = 1 << 11, TALLY_XML_PARSE_COMPACT = 1 << 16, TALLY_XML_PARSE_BIG_LINES = 1 << 22,
    TALLY_XML_ERR_ERROR = 2
};

/// xmlreader.h's xmlReaderTypes, as `xmlTextReaderNodeType` returns them.
enum {
    TALLY_XML_READER_ELEMENT = 1, TALLY_XML_READER_TEXT = 3, TALLY_XML_READER_CDATA = 4,
    TALLY_XML_READER_ENTITY_REFERENCE = 5, TALLY_XML_READER_ENTITY = 6, TALLY_XML_READER_DOCUMENT_TYPE = 10,
    TALLY_XML_READER_END_ELEMENT = 15,
};

typedef struct TallyXML {
    xmlTextReaderPtr _Nullable (*_Nonnull xmlReaderForIO)(
        TallyXMLReadCallback _Nullable, TallyXMLCloseCallback _Nullable, void *_Nullable, const char *_Nullable,
        const char *_Nullable, int);
    void (*_Nonnull xmlFreeTextReader)(xmlTextReaderPtr _Nonnull);
    int (*_Nonnull xmlTextReaderRead)(xmlTextReaderPtr _Nonnull);
    int (*_Nonnull xmlTextReaderNodeType)(xmlTextReaderPtr _Nonnull);
    const xmlChar *_Nullable (*_Nonnull xmlTextReaderConstLocalName)(xmlTextReaderPtr _Nonnull);
    const xmlChar *_Nullable (*_Nonnull xmlTextReaderConstNamespaceUri)(xmlTextReaderPtr _Nonnull);
    const xmlChar *_Nullable (*_Nonnull xmlTextReaderConstValue)(xmlTextReaderPtr _Nonnull);
    int (*_Nonnull xmlTextReaderIsEmptyElement)(xmlTextReaderPtr _Nonnull);
    int (*_Nonnull xmlTextReaderMoveToAttribute)(xmlTextReaderPtr _Nonnull, const xmlChar *_Nonnull);
    int (*_Nonnull xmlTextReaderMoveToElement)(xmlTextReaderPtr _Nonnull);
    int (*_Nonnull xmlTextReaderGetParserLineNumber)(xmlTextReaderPtr _Nonnull);
    xmlNodePtr _Nullable (*_Nonnull xmlTextReaderCurrentNode)(xmlTextReaderPtr _Nonnull);
    long (*_Nonnull xmlGetLineNo)(xmlNodePtr _Nonnull);
    void (*_Nonnull xmlTextReaderSetStructuredErrorHandler)(
        xmlTextReaderPtr _Nonnull, TallyXMLStructuredErrorFunc _Nullable, void *_Nullable);
    void (*_Nonnull xmlSetGenericErrorFunc)(void *_Nullable, TallyXMLGenericErrorFunc _Nullable);
    void (*_Nonnull xmlSetStructuredErrorFunc)(void *_Nullable, TallyXMLStructuredErrorFunc _Nullable);
} TallyXML;

#define TALLY_XML_FUNCTIONS(X) \
    X(xmlReaderForIO) X(xmlFreeTextReader) X(xmlTextReaderRead) X(xmlTextReaderNodeType) \
    X(xmlTextReaderConstLocalName) X(xmlTextReaderConstNamespaceUri) X(xmlTextReaderConstValue) \
    X(xmlTextReaderIsEmptyElement) X(xmlTextReaderMoveToAttribute) X(xmlTextReaderMoveToElement) X(xmlTextReaderGetParserLineNumber) X(xmlTextReaderCurrentNode) X(xmlGetLineNo) \
    X(xmlTextReaderSetStructuredErrorHandler) X(xmlSetGenericErrorFunc) X(xmlSetStructuredErrorFunc)

/// The first error libxml2 reported while reading one document, and its line.
typedef struct TallyXMLError {
    int failed;
    int line;
    char message[256];
} TallyXMLError;

/// Records the first error (warnings are ignored) into the `TallyXMLError` passed as `context`;
/// libxml2 would otherwise print it.
static inline void tally_xml_record_error(void *_Nullable context, TallyXMLLibraryError *_Nullable error) {
    TallyXMLError *record = (TallyXMLError *)context;
    if (record == NULL || error == NULL || error->level < TALLY_XML_ERR_ERROR || record->failed) return;
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

static inline void tally_xml_silence_structured(void *_Nullable context, TallyXMLLibraryError *_Nullable error) {
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

/// Starts a reader over `read`, with the options the statement readers allow: no network; blank
/// text between elements dropped and small texts kept compact, which no reader needs otherwise; and
/// none of XML_PARSE_NOENT, DTDLOAD, DTDATTR (no entity substitution, DTD loading or default
/// attributes) nor XML_PARSE_HUGE (libxml2's size limits stay). Errors go to `error`.
static inline xmlTextReaderPtr _Nullable tally_xml_reader(
    const TallyXML *_Nonnull xml, TallyXMLReadCallback _Nonnull read, void *_Nullable context, TallyXMLError *_Nonnull error
) {
    // Errors outside the reader's own handler go nowhere rather than to standard error; the
    // handlers are the thread's own, so they are set on the thread that reads.
    xml->xmlSetGenericErrorFunc(NULL, tally_xml_silence);
    xml->xmlSetStructuredErrorFunc(NULL, tally_xml_silence_structured);
    xmlTextReaderPtr reader = xml->xmlReaderForIO(
        read, NULL, context, NULL, NULL, TALLY_XML_PARSE_NONET | TALLY_XML_PARSE_BIG_LINES | TALLY_XML_PARSE_NOBLANKS | TALLY_XML_PARSE_COMPACT);
    if (reader != NULL) xml->xmlTextReaderSetStructuredErrorHandler(reader, tally_xml_record_error, error);
    return reader;
}
