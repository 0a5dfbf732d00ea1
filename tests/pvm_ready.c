/* pvm_ready.c: bin/pvm_ready, for the tests' private virtual machines
 * (tests/pvmlib.sh's pvm_up): joins the virtual machine of PVM_TMP as any
 * task started from a shell does, and leaves it. Exit 0 when the pvmd took
 * the task; 1, and why on stderr (libpvm's own line included), when not.
 * A pvmd whose address file names its socket should take a task at once;
 * this says so instead of assuming it.
 *
 *   pvm_ready
 */
#include <stdio.h>

#include "runtime/transport/transport.h"

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: pvm_ready (joins the virtual machine of PVM_TMP, "
                        "and leaves it)\n");
        return 2;
    }
    tr_peer me;
    char msg[512];
    if (tr_join(&me, msg, sizeof msg) < 0) {
        fprintf(stderr, "pvm_ready: %s\n", msg);
        return 1;
    }
    tr_leave();
    return 0;
}
