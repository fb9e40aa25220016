/* LOOP probes, black box outside and white box inside: break, continue, return and goto
 * out of the body, unbraced bodies, do-while, nested loops, loops in switch cases. */
/* The layout is part of what this case tests: */
/* clang-format off */
#include <stdio.h>

static int search(int grid[4][4], int key) {
  int r, c;
  int found = -1;
  for (r = 0; r < 4; r++) {
    for (c = 0; c < 4; c++) {
      if (grid[r][c] < 0) continue;
      if (grid[r][c] == key) goto out;
      if (grid[r][c] > 90) return -2;
    }
  }
  return found;
out:
  found = r * 4 + c;
  return found;
}

static int sums(int n) {
  int total = 0, i = 0, j;
  while (i < n)
    for (j = 0, i++; j < i; j++) total += j;
  do {
    total--;
    if (total % 7 == 0) break;
  } while (total > 0);
  switch (n % 2) {
  case 0:
    for (j = 0; j < n; j++)
      if (j == 3) break;
      else total += j;
    /* fall through */
  default:
    while (total > 1000) total /= 2;
  }
  return total;
}

int main(void) {
  int grid[4][4] = {{1, 2, 3, 4}, {5, -1, 7, 8}, {9, 10, 11, 12}, {13, 14, 99, 16}};
  printf("%d %d %d\n", search(grid, 7), search(grid, 16), search(grid, 42));
  printf("%d %d\n", sums(10), sums(25));
  return 0;
}
