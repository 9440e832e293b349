// Runs the poster code of Sources/CVips/movie_poster.c over each file named, for run.sh's sanitizer builds.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "movie_poster.h"

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY | O_NOFOLLOW);
        if (fd < 0) {
            perror(argv[i]);
            continue;
        }
        struct photointake_movie_poster poster = {0};
        char error[400] = {0};
        photointake_poster_status status =
            photointake_movie_poster(fd, 512, 100000000LL, 3000, &poster, error, sizeof error);
        printf("%s: status %d %dx%d orientation %d duration %.3f at %.3f '%s'\n", argv[i], status, poster.width,
               poster.height, poster.orientation, poster.duration, poster.time, status ? error : "");
        photointake_movie_poster_free(&poster);
        close(fd);
    }
    return 0;
}
