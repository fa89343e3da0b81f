/*
 * uuid_gen.c: pier_uuid_generate, the public generator of UUIDs over
 * uuid.c's pure builders, the system clock and the kernel's random bytes.
 *
 * The generator's state is the caller's (pier_uuid_gen), laid out as
 * uuid.c's pier__uuid_v7_state and copied in and out, so that one
 * generator's version 7 UUIDs increase exactly as the SQL function
 * uuid_v7()'s do within one connection.
 */
#include "base/base.h"
#include "types/codecs.h"

pier_status pier_uuid_generate(char out[PIER_UUID_TEXT_SIZE],
                               pier_uuid_gen *gen, int version,
                               pier_error *err)
{
    if (out == NULL || gen == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_uuid_generate: out and gen are required");
    if (version != 4 && version != 7)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "UUID version %d: only 4 and 7 are generated",
                          version);
    unsigned char random[16], b[16];
    if (!pier__random_bytes(random, sizeof random))
        return pier__fail(err, PIER_E_READ_FAILED,
                          "the system gave no random bytes for a UUID");
    if (version == 4) {
        pier__uuid_v4(random, b);
    } else {
        int64_t us = pier__clock_system(NULL);
        int64_t ms = us / 1000 - (us % 1000 < 0);
        pier__uuid_v7_state st = { gen->last_ms, gen->counter };
        pier__uuid_v7(&st, ms, random, b);
        gen->last_ms = st.ms;
        gen->counter = st.counter;
    }
    pier__uuid_format(b, out);
    return PIER_OK;
}
