/* The program's error classes, codes and strings (MPI-3.1 8.5):
 * MPI_Add_error_class, MPI_Add_error_code (of a class of its own and of
 * a predefined one) and MPI_Add_error_string, as MPI_Error_class,
 * MPI_Error_string and the attribute MPI_LASTUSEDCODE then answer, and a
 * program's error handler given such a code; MPI_Type_match_size
 * (17.1.9: a type of the size asked, of each class) and
 * MPI_Is_thread_main (12.4.3). With -x, the library's own answers where
 * MPI-3.1 leaves them to the implementation: the types matched (the
 * node's C types; Open MPI gives Fortran ones), the class of a class of
 * the program's (itself: 8.5 makes a class a code of itself; Open MPI
 * 4.1 says MPI_ERR_UNKNOWN) and a class per bad argument. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

static int handled = -1;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled = *code;
}

static void own_answers(void)
{
    MPI_Datatype t;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    const struct { int cls, size; } asks[] = { { MPI_TYPECLASS_INTEGER, 1 }, { MPI_TYPECLASS_INTEGER, 2 },
                                               { MPI_TYPECLASS_INTEGER, 4 }, { MPI_TYPECLASS_INTEGER, 8 },
                                               { MPI_TYPECLASS_REAL, 4 }, { MPI_TYPECLASS_REAL, 8 },
                                               { MPI_TYPECLASS_COMPLEX, 8 }, { MPI_TYPECLASS_COMPLEX, 16 } };
    for (unsigned i = 0; i < sizeof asks / sizeof asks[0]; i++) {
        MPI_Type_match_size(asks[i].cls, asks[i].size, &t);
        MPI_Type_get_name(t, name, &len);
        if (rank == 0)
            printf("match_size %d %d: %s\n", asks[i].cls, asks[i].size, name);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int code, cls;
    struct { const char *what; int e; } calls[] = {
        { "match_size integer 3", MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t) },
        { "match_size class 99", MPI_Type_match_size(99, 4, &t) },
        { "add_error_string to MPI_ERR_ARG", MPI_Add_error_string(MPI_ERR_ARG, "mine") },
        { "add_error_string to 9999", MPI_Add_error_string(9999, "mine") },
        { "add_error_code of class 9999", MPI_Add_error_code(9999, &code) },
        { "error_class of 9999", MPI_Error_class(9999, &cls) },
    };
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (rank == 0)
            printf("bad %s: %s\n", calls[i].what, class_name(calls[i].e));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "-x"))
        own_answers();
    int mine, code, argcode, cls = -1, len, flag, ok;
    char s[MPI_MAX_ERROR_STRING];

    /* a class, a code of it, a code of MPI_ERR_ARG: each new, above MPI_ERR_LASTCODE */
    MPI_Add_error_class(&mine);
    MPI_Add_error_code(mine, &code);
    MPI_Add_error_code(MPI_ERR_ARG, &argcode);
    ok = mine > MPI_ERR_LASTCODE && code != mine && argcode != code && argcode > MPI_ERR_LASTCODE;
    MPI_Error_class(code, &cls);
    ok &= cls == mine;
    MPI_Error_class(argcode, &cls);
    ok &= cls == MPI_ERR_ARG;
    int *last = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    ok &= flag && *last >= argcode && *last >= code && *last >= mine;
    check("add_error_class, add_error_code", ok);
    if (argc > 1 && !strcmp(argv[1], "-x")) {   /* a class is a code of itself (Open MPI 4.1: MPI_ERR_UNKNOWN) */
        MPI_Error_class(mine, &cls);
        check("own: the class of a class", cls == mine);
    }

    /* strings: none set is "", set, set again */
    MPI_Error_string(code, s, &len);
    ok = len == 0 && s[0] == 0;
    MPI_Add_error_string(mine, "a class of the program's");
    MPI_Add_error_string(code, "first");
    MPI_Add_error_string(code, "a code of the program's");
    MPI_Error_string(code, s, &len);
    ok &= !strcmp(s, "a code of the program's") && len == (int)strlen(s);
    MPI_Error_string(mine, s, &len);
    ok &= !strcmp(s, "a class of the program's");
    check("add_error_string, error_string", ok);

    /* an error handler is given the program's code */
    MPI_Errhandler h;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(handler, &h);
    MPI_Comm_set_errhandler(dup, h);
    MPI_Comm_call_errhandler(dup, code);
    check("a handler given the code", handled == code);
    MPI_Errhandler_free(&h);
    MPI_Comm_free(&dup);

    /* match_size: a type of each class, of the size asked */
    const struct { int cls, size; } asks[] = { { MPI_TYPECLASS_INTEGER, 4 }, { MPI_TYPECLASS_INTEGER, 8 },
                                               { MPI_TYPECLASS_REAL, 4 }, { MPI_TYPECLASS_REAL, 8 },
                                               { MPI_TYPECLASS_COMPLEX, 16 } };
    ok = 1;
    for (unsigned i = 0; i < sizeof asks / sizeof asks[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        int sz = -1;
        ok &= MPI_Type_match_size(asks[i].cls, asks[i].size, &t) == MPI_SUCCESS;
        MPI_Type_size(t, &sz);
        ok &= sz == asks[i].size;
    }
    check("type_match_size", ok);

    flag = -1;
    check("is_thread_main", MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);

    if (rank == 0)
        printf(fails ? "error_classes: FAILED\n" : "error_classes: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
