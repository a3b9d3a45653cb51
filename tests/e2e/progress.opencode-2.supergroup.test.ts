import { progressSuite } from "./progress-suite.ts";

progressSuite("2.0.15", "supergroup");
