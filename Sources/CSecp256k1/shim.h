#ifndef KITH_CSECP256K1_SHIM_H
#define KITH_CSECP256K1_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

/*
 * Whole operations over flat byte buffers, so Swift never handles libsecp256k1's opaque structs or its
 * flag macros. Every function returns 1 on success and 0 on failure. All EC arithmetic is libsecp256k1's.
 */

/* A signing context, randomized with `seed32` against side channels; NULL on failure. */
static inline secp256k1_context *kith_secp256k1_signing_context(const uint8_t seed32[32]) {
    secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    if (ctx == NULL) return NULL;
    if (!secp256k1_context_randomize(ctx, seed32)) { secp256k1_context_destroy(ctx); return NULL; }
    return ctx;
}

/* 1 if `seckey32` is a valid secret key (non-zero, below the group order). */
static inline int kith_secp256k1_seckey_verify(const uint8_t seckey32[32]) {
    return secp256k1_ec_seckey_verify(secp256k1_context_static, seckey32);
}

/* The 65-byte uncompressed public key (0x04 ‖ X ‖ Y) of `seckey32`. */
static inline int kith_secp256k1_public_key(const uint8_t seckey32[32], const uint8_t seed32[32], uint8_t out65[65]) {
    secp256k1_context *ctx = kith_secp256k1_signing_context(seed32);
    if (ctx == NULL) return 0;
    secp256k1_pubkey pubkey;
    size_t length = 65;
    int ok = secp256k1_ec_pubkey_create(ctx, &pubkey, seckey32)
        && secp256k1_ec_pubkey_serialize(ctx, out65, &length, &pubkey, SECP256K1_EC_UNCOMPRESSED)
        && length == 65;
    secp256k1_context_destroy(ctx);
    return ok;
}

/* Re-encodes a 33- or 65-byte public key; `compressed` picks the 33-byte form. */
static inline int kith_secp256k1_public_key_convert(const uint8_t *input, size_t input_length, int compressed,
                                                    uint8_t *out, size_t out_length) {
    secp256k1_pubkey pubkey;
    if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &pubkey, input, input_length)) return 0;
    size_t length = out_length;
    return secp256k1_ec_pubkey_serialize(secp256k1_context_static, out, &length, &pubkey,
                                         compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED)
        && length == out_length;
}

/* RFC 6979, low-S recoverable signature of `digest32`: out65 = r ‖ s ‖ recid. */
static inline int kith_secp256k1_sign_recoverable(const uint8_t digest32[32], const uint8_t seckey32[32],
                                                  const uint8_t seed32[32], uint8_t out65[65]) {
    secp256k1_context *ctx = kith_secp256k1_signing_context(seed32);
    if (ctx == NULL) return 0;
    secp256k1_ecdsa_recoverable_signature signature;
    int recid = -1;
    int ok = secp256k1_ecdsa_sign_recoverable(ctx, &signature, digest32, seckey32, NULL, NULL)
        && secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, out65, &recid, &signature)
        && recid >= 0 && recid <= 3;
    if (ok) out65[64] = (uint8_t)recid;
    secp256k1_context_destroy(ctx);
    return ok;
}

/* Checks r ‖ s (64 bytes): 0 if r or s is out of range, 1 if s is in the lower half, 2 if s is high. */
static inline int kith_secp256k1_compact_check(const uint8_t compact64[64]) {
    secp256k1_ecdsa_signature signature;
    if (!secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, &signature, compact64)) return 0;
    /* normalize returns 1 when it had to flip a high S. */
    return secp256k1_ecdsa_signature_normalize(secp256k1_context_static, NULL, &signature) ? 2 : 1;
}

/* Recovers the 65-byte uncompressed public key that signed `digest32` with r ‖ s ‖ recid. */
static inline int kith_secp256k1_recover(const uint8_t digest32[32], const uint8_t signature65[65], uint8_t out65[65]) {
    if (signature65[64] > 3) return 0;
    secp256k1_ecdsa_recoverable_signature signature;
    secp256k1_pubkey pubkey;
    size_t length = 65;
    return secp256k1_ecdsa_recoverable_signature_parse_compact(secp256k1_context_static, &signature, signature65,
                                                               (int)signature65[64])
        && secp256k1_ecdsa_recover(secp256k1_context_static, &pubkey, &signature, digest32)
        && secp256k1_ec_pubkey_serialize(secp256k1_context_static, out65, &length, &pubkey, SECP256K1_EC_UNCOMPRESSED)
        && length == 65;
}
#endif
