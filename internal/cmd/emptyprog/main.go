// Command emptyprog does nothing. It is the start-up baseline of make
// bench: `skillopt bench catalog --empty-program` compares `skillopt
// --version` with it.
package main

func main() {}
