/* The program's error classes, codes and strings (MPI-3.1 8.5): code
 * MPI_ERR_LASTCODE + 1 + i is added[i], of class cls (itself for a
 * class), its string "" until MPI_Add_error_string sets one. At most
 * MPII_MAX_ADDED, so that a node ended by one (status 16 + code) ends
 * with a status under 256. The error path names them through
 * mpii_added_name, set at the first. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define MPII_MAX_ADDED 128
static struct added_code { int cls; char *string; } added[MPII_MAX_ADDED];
static int nadded;

static int added_index(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < nadded ? i : -1;
}

int mpii_last_used_code(void) { return MPI_ERR_LASTCODE + nadded; }

int mpii_added_class(int code)
{
    int i = added_index(code);
    return i < 0 ? -1 : added[i].cls;
}

const char *mpii_added_string(int code)
{
    int i = added_index(code);
    return i < 0 ? NULL : added[i].string ? added[i].string : "";
}

/* For the error path: the program's string, or what the code is. */
static const char *added_name(int code)
{
    int i = added_index(code);
    if (i < 0)
        return NULL;
    if (added[i].string && added[i].string[0])
        return added[i].string;
    return added[i].cls == code ? "an error class of the program" : "an error code of the program";
}

static int add_code(int cls, int *code)
{
    OUT_OR_ERR(MPI_COMM_WORLD, code);
    if (nadded == MPII_MAX_ADDED)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INTERN, "more than %d error classes and codes of the program's",
                        MPII_MAX_ADDED);
    *code = MPI_ERR_LASTCODE + 1 + nadded;
    mpii_added_name = added_name;
    added[nadded++] = (struct added_code){ cls < 0 ? *code : cls, NULL };
    return MPI_SUCCESS;
}

int MPI_Add_error_class(int *errorclass)
{
    MPII_ENTER("MPI_Add_error_class");
    return add_code(-1, errorclass);
}

/* A code of a predefined class or of one the program added. */
int MPI_Add_error_code(int errorclass, int *errorcode)
{
    MPII_ENTER("MPI_Add_error_code");
    int i = added_index(errorclass);
    if (i < 0 ? errorclass < MPI_SUCCESS || errorclass > MPI_ERR_LASTCODE : added[i].cls != errorclass)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "error class %d is not valid; accepted: a predefined class "
                        "(%d..%d) or one of MPI_Add_error_class's", errorclass, MPI_SUCCESS, MPI_ERR_LASTCODE);
    return add_code(errorclass, errorcode);
}

/* The string of a class or code the program added, replacing any before
 * (MPI-3.1 8.5: a predefined one's is not changed). */
int MPI_Add_error_string(int errorcode, const char *string)
{
    MPII_ENTER("MPI_Add_error_string");
    int i = added_index(errorcode);
    if (i < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "error code %d is not one the program added; accepted: %s",
                        errorcode, nadded ? "MPI_ERR_LASTCODE + 1 .. MPI_LASTUSEDCODE" : "none, none being added");
    if (!string)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter string; accepted: a string");
    size_t n = strlen(string);
    if (n >= MPI_MAX_ERROR_STRING)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "a string of %u characters; accepted: 0..%d", (unsigned)n,
                        MPI_MAX_ERROR_STRING - 1);
    char *s = strdup(string);
    if (!s)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%u bytes for an error string", (unsigned)n + 1);
    free(added[i].string);
    added[i].string = s;
    return MPI_SUCCESS;
}
