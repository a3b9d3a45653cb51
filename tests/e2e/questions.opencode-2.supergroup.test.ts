import { questionSuite } from "./question-suite.ts";

questionSuite("2.0.15", "supergroup");
