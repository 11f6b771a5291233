/* safetensors.c — validates a .safetensors file and locates one of its tensors
 * (an sl_io_tensor view; io/vec.c reads a row of it, io/steps.c a [T, V] matrix).
 *
 * Format (huggingface/safetensors, safetensors/src/tensor.rs, read_metadata and
 * Metadata::validate, as of safetensors 0.4–0.5): 8 bytes N (u64, little-endian),
 * N bytes of UTF-8 JSON, then the byte buffer. The JSON maps each tensor name to
 * {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]} (offsets relative
 * to the buffer); "__metadata__" is null or a map of strings to strings (upstream's
 * Option<HashMap<String, String>>: anything else is refused there and here), not read.
 * `safetensors.torch.save_file` pads the JSON with spaces to a multiple of 8 and
 * lays the tensors out contiguously, sorted by dtype then name.
 *
 * We accept exactly what the upstream reader accepts (same checks: N at most
 * 100,000,000; sorted by offset the tensors tile the buffer from 0 with no gap
 * or overlap; end - begin = product(shape) * dtype size; the last end is the
 * end of the file), so a file samplab reads is a file safetensors loads, and
 * each refusal says which rule failed where. Numbers are little-endian in the
 * file and are decoded byte by byte, so unaligned data and big-endian hosts work.
 *
 * Elements are decoded by io/tensor.c. Divergence from upstream: none known in what is
 * accepted; sub-byte dtypes (F4, F6_*) are sized but never read as vectors.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/sl_io.h"

/* Upstream's MAX_HEADER_SIZE: a longer header is refused before it is read. */
#define SL_ST_MAX_HEADER 100000000ull

typedef struct sl_st_dtype {
    const char *name;
    unsigned bits;      /* element size in bits, as upstream's Dtype::bitsize */
    int readable;       /* one of the four float types we convert */
} sl_st_dtype;

static const sl_st_dtype st_dtypes[] = {
    {"F64", 64, 1}, {"F32", 32, 1}, {"F16", 16, 1}, {"BF16", 16, 1},
    {"BOOL", 8, 0}, {"U8", 8, 0}, {"I8", 8, 0}, {"F8_E5M2", 8, 0}, {"F8_E4M3", 8, 0},
    {"F8_E8M0", 8, 0}, {"I16", 16, 0}, {"U16", 16, 0}, {"I32", 32, 0}, {"U32", 32, 0},
    {"I64", 64, 0}, {"U64", 64, 0}, {"C64", 64, 0}, {"F4", 4, 0}, {"F6_E2M3", 6, 0},
    {"F6_E3M2", 6, 0},
};

typedef struct sl_st_tensor {
    const char *name;       /* points into the JSON object (valid while it lives) */
    const sl_st_dtype *dtype;
    size_t ndim;
    uint64_t *shape;
    uint64_t begin, end;
} sl_st_tensor;

/* `s` for a one-line message: base's escaping (control bytes and bytes from
 * 0x7f on as \xNN), cut with "..." to fit cap. */
static const char *st_clean(const char *s, char *out, size_t cap)
{
    return sl_base_esc_str(s, out, cap);
}

static const char *st_json_kind(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    default: return "null";
    }
}

static int st_cmp_offset(const void *a, const void *b)
{
    const sl_st_tensor *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return 0;
}

/* A non-negative JSON integer (jansson holds up to 2^63-1; larger is already a
 * parse error). */
static int st_uint(const json_t *j, uint64_t *out)
{
    if (!json_is_integer(j) || json_integer_value(j) < 0)
        return -1;
    *out = (uint64_t)json_integer_value(j);
    return 0;
}

/* Parses one tensor entry; on error writes the reason into why. */
static int sl_st_parse_entry(const char *key, json_t *v, sl_st_tensor *t, char *why, size_t cap)
{
    if (!json_is_object(v))
        return snprintf(why, cap, "is not an object"), -1;
    json_t *jd = json_object_get(v, "dtype"), *js = json_object_get(v, "shape"),
           *jo = json_object_get(v, "data_offsets");
    if (!jd || !js || !jo)
        return snprintf(why, cap, "lacks \"%s\"", !jd ? "dtype" : !js ? "shape" : "data_offsets"), -1;
    if (!json_is_string(jd))
        return snprintf(why, cap, "has a dtype that is not a string"), -1;
    const char *dn = json_string_value(jd);
    t->dtype = NULL;
    for (size_t i = 0; i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
        if (!strcmp(dn, st_dtypes[i].name))
            t->dtype = &st_dtypes[i];
    if (!t->dtype) {
        char c[48];
        return snprintf(why, cap, "has unknown dtype \"%s\"", st_clean(dn, c, sizeof c)), -1;
    }
    if (!json_is_array(js))
        return snprintf(why, cap, "has a shape that is not an array"), -1;
    t->ndim = json_array_size(js);
    t->shape = t->ndim ? calloc(t->ndim, sizeof *t->shape) : NULL;
    if (t->ndim && !t->shape)
        return snprintf(why, cap, "is too large to hold"), -1;
    for (size_t i = 0; i < t->ndim; i++)
        if (st_uint(json_array_get(js, i), &t->shape[i]))
            return snprintf(why, cap, "has shape entry %zu that is not a non-negative integer", i), -1;
    if (!json_is_array(jo) || json_array_size(jo) != 2 || st_uint(json_array_get(jo, 0), &t->begin) ||
        st_uint(json_array_get(jo, 1), &t->end))
        return snprintf(why, cap, "has data_offsets that are not two non-negative integers"), -1;
    t->name = key;
    return 0;
}

/* Number of elements and bytes, with overflow checks; -1 on overflow. */
static int st_size(const sl_st_tensor *t, uint64_t *nelem, uint64_t *nbytes)
{
    uint64_t n = 1;
    for (size_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] && n > UINT64_MAX / t->shape[i])
            return -1;
        n *= t->shape[i];
    }
    if (n > UINT64_MAX / t->dtype->bits)
        return -1;
    *nelem = n;
    *nbytes = n * t->dtype->bits / 8;
    /* sub-byte dtypes must fill whole bytes (upstream: MisalignedSlice) */
    return (n * t->dtype->bits) % 8 ? -2 : 0;
}

static void st_shape_str(const sl_st_tensor *t, char *out, size_t cap)
{
    size_t j = 0;
    j += (size_t)snprintf(out, cap, "[");
    for (size_t i = 0; i < t->ndim && j < cap; i++)
        j += (size_t)snprintf(out + j, cap - j, "%s%llu", i ? "," : "", (unsigned long long)t->shape[i]);
    if (j < cap)
        snprintf(out + j, cap - j, "]");
}

static uint64_t sl_st_le(const unsigned char *p, unsigned nbytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Validates the whole file as upstream does and picks the tensor. */
int sl_io_safetensors_view(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                           sl_io_tensor *fd, sl_error *err)
{
    char why[200], cn[96], cn2[96], shp[96];
    int rc = SL_EINVAL;
    json_t *root = NULL;
    sl_st_tensor *ts = NULL;
    size_t nt = 0;

    memset(fd, 0, sizeof *fd);
    if (len < 8)
        return sl_base_error_set(err, SL_EINVAL, "%s: %zu bytes, too short for the 8-byte header length of a .safetensors file",
                            name, len);
    uint64_t n = sl_st_le(buf, 8);
    if (n > SL_ST_MAX_HEADER)
        return sl_base_error_set(err, SL_EINVAL, "%s: header length %llu (bytes 0-7) is over the 100000000 safetensors allows (not a .safetensors file?)",
                            name, (unsigned long long)n);
    if (n > len - 8)
        return sl_base_error_set(err, SL_EINVAL, "%s: header length %llu (bytes 0-7) runs past the end of the file (%zu bytes)",
                            name, (unsigned long long)n, len);

    json_error_t je;
    root = json_loadb((const char *)buf + 8, (size_t)n, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        /* jansson's position is within the header; +8 makes it a file offset */
        char jt[160];
        rc = sl_base_error_set(err, SL_EINVAL, "%s: header is not valid JSON at byte %lld: %s", name,
                          (long long)je.position + 8, st_clean(je.text, jt, sizeof jt));
        goto done;
    }
    if (!json_is_object(root)) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: header is JSON but %s, not an object", name, st_json_kind(root));
        goto done;
    }

    size_t cap = json_object_size(root);
    ts = calloc(cap ? cap : 1, sizeof *ts);
    if (!ts) {
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu tensor entries", name, cap);
        goto done;
    }
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        if (!strcmp(key, "__metadata__")) {
            /* upstream's Metadata { metadata: Option<HashMap<String, String>> }: null or a map of strings */
            if (json_is_null(val))
                continue;
            if (!json_is_object(val)) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: header entry \"__metadata__\" is %s, not a map of strings",
                                       name, st_json_kind(val));
                goto done;
            }
            const char *mk;
            json_t *mv;
            json_object_foreach(val, mk, mv) {
                if (!json_is_string(mv)) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "%s: header entry \"__metadata__\" maps \"%s\" to %s; its values are strings",
                                           name, st_clean(mk, cn, sizeof cn), st_json_kind(mv));
                    goto done;
                }
            }
            continue;
        }
        if (sl_st_parse_entry(key, val, &ts[nt], why, sizeof why)) {
            free(ts[nt].shape);
            rc = sl_base_error_set(err, SL_EINVAL, "%s: header entry \"%s\" %s", name, st_clean(key, cn, sizeof cn), why);
            goto done;
        }
        nt++;
    }
    if (!nt) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: holds no tensors", name);
        goto done;
    }

    /* Upstream's validate(): sorted by offsets, each tensor starts where the
     * previous one ended, its byte length is shape x dtype, and the last one
     * ends at the end of the file. */
    qsort(ts, nt, sizeof *ts, st_cmp_offset);
    uint64_t data_len = (uint64_t)(len - 8) - n, at = 0;
    for (size_t i = 0; i < nt; i++) {
        sl_st_tensor *t = &ts[i];
        uint64_t ne, nb;
        st_clean(t->name, cn, sizeof cn);
        if (t->end < t->begin) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has data_offsets [%llu,%llu] that end before they begin",
                              name, cn, (unsigned long long)t->begin, (unsigned long long)t->end);
            goto done;
        }
        if (t->begin != at) {
            if (t->begin < at)
                rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" data_offsets [%llu,%llu] overlap the tensor before it (ends at %llu)",
                                  name, cn, (unsigned long long)t->begin, (unsigned long long)t->end, (unsigned long long)at);
            else
                rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" data_offsets [%llu,%llu] leave a gap after byte %llu of the data",
                                  name, cn, (unsigned long long)t->begin, (unsigned long long)t->end, (unsigned long long)at);
            goto done;
        }
        if (t->end > data_len) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" data_offsets [%llu,%llu] run past the %llu data bytes in the file",
                              name, cn, (unsigned long long)t->begin, (unsigned long long)t->end, (unsigned long long)data_len);
            goto done;
        }
        st_shape_str(t, shp, sizeof shp);
        int s = st_size(t, &ne, &nb);
        if (s == -1) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" shape %s overflows 64 bits", name, cn, shp);
            goto done;
        }
        if (s == -2 || t->end - t->begin != nb) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has %llu data bytes but shape %s of %s needs %llu%s",
                              name, cn, (unsigned long long)(t->end - t->begin), shp, t->dtype->name,
                              (unsigned long long)nb, s == -2 ? " and a part byte" : "");
            goto done;
        }
        at = t->end;
    }
    if (at != data_len) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: tensors end at data byte %llu but the file has %llu data bytes (trailing bytes)",
                          name, (unsigned long long)at, (unsigned long long)data_len);
        goto done;
    }

    /* Which tensor. */
    const sl_st_tensor *t = NULL;
    if (tensor) {
        for (size_t i = 0; i < nt && !t; i++)
            if (!strcmp(ts[i].name, tensor))
                t = &ts[i];
    } else if (nt == 1) {
        t = &ts[0];
    }
    if (!t) {
        char list[300];
        size_t j = 0;
        list[0] = '\0';
        for (size_t i = 0; i < nt && j + 8 < sizeof list; i++) {
            int w = snprintf(list + j, sizeof list - j, "%s%s", i ? ", " : "", st_clean(ts[i].name, cn2, 40));
            j += w > 0 ? (size_t)w : 0;
        }
        if (j >= sizeof list - 8)
            memcpy(list + sizeof list - 5, "...", 4);
        if (tensor)
            rc = sl_base_error_set(err, SL_EINVAL, "%s: no tensor \"%s\" (it has: %s)", name,
                              st_clean(tensor, cn, sizeof cn), list);
        else
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %zu tensors, choose one with --tensor (it has: %s)", name, nt, list);
        goto done;
    }
    st_clean(t->name, cn, sizeof cn);
    st_shape_str(t, shp, sizeof shp);
    if (!t->dtype->readable) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has dtype %s; samplab reads F32, F64, F16 and BF16",
                          name, cn, t->dtype->name);
        goto done;
    }
    if (t->ndim == 0) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" is a scalar (shape []), not a vector", name, cn);
        goto done;
    }

    memcpy(fd->name, cn, sizeof cn);
    memcpy(fd->shape, shp, sizeof shp);
    fd->ndim = t->ndim;
    fd->d0 = t->shape[0];
    fd->v = t->shape[t->ndim - 1];
    fd->rows = 1;
    for (size_t i = 0; i + 1 < t->ndim; i++)
        fd->rows *= t->shape[i]; /* cannot overflow: product(shape) * bits fit in 64 bits */
    fd->bits = t->dtype->bits;
    fd->bf16 = !strcmp(t->dtype->name, "BF16");
    fd->data = buf + 8 + n + t->begin;
    rc = 0;

done:
    for (size_t i = 0; i < nt; i++)
        free(ts[i].shape);
    free(ts);
    json_decref(root);
    return rc;
}
