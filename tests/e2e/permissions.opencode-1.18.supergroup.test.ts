import { permissionSuite } from "./permission-suite.ts";

permissionSuite("1.18.33", "supergroup");
