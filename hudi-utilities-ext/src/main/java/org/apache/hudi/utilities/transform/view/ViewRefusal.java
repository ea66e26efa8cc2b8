/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hudi.utilities.transform.view;

/**
 * A plan a view cannot be maintained by incrementally, thrown by the rule that finds it; the message names the operator
 * and why. {@link ViewShape} turns it into the view's refusal; the other passes run only on plans it accepted, so there
 * it means a rule is missing, and fails the batch rather than compute wrong rows.
 */
final class ViewRefusal extends RuntimeException {

  ViewRefusal(String message) {
    // No stack trace: a refusal is an answer about the query, not a failure of the code.
    super(message, null, false, false);
  }
}
