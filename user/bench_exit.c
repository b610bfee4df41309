/*
 * bench_exit.c - the program make bench's spawn_exit starts
 * (user/bench_spawn.c): it ends at once, so that a round is the
 * kernel's work of starting and ending a program and little else.
 */
int main(void)
{
	return 0;
}
