import { questionSuite } from "./question-suite.ts";

questionSuite("1.1.53", "supergroup");
