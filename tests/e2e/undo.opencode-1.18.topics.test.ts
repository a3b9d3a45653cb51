import { undoSuite } from "./undo-suite.ts";

undoSuite("1.18.33", "supergroup", true);
