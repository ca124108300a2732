/// Seed 004: a restaurant app behind a five-tab bottom bar, under its own preset.
enum RestaurantDemo {
    static let json = #"""
        {
          "id": "restaurant",
          "name": {"en": "Restaurant", "zh-Hant": "餐廳"},
          "languages": ["en", "zh-Hant"],
          "tint": "#FF9500",
          "layout": "bottom",
          "policies": "seed004",
          "tabs": [
            {
              "id": "home",
              "title": {"en": "Home", "zh-Hant": "主頁"},
              "icon": "home",
              "page": {
                "kind": "counter",
                "heading": {"en": "Welcome", "zh-Hant": "歡迎"},
                "paragraphs": [
                  {"en": "Find a table near you, top up your wallet and keep up with our news.",
                   "zh-Hant": "尋找附近的餐廳、儲值錢包，並掌握最新消息。"}
                ],
                "label": {"en": "Favourite dishes", "zh-Hant": "最愛的菜色"},
                "start": 0,
                "maximum": 20
              }
            },
            {
              "id": "finding",
              "allowsHiding": true,
              "title": {"en": "Finding", "zh-Hant": "尋找"},
              "icon": "search",
              "page": {
                "kind": "search",
                "heading": {"en": "Nearby restaurants", "zh-Hant": "附近餐廳"},
                "placeholder": {"en": "Search restaurants", "zh-Hant": "搜尋餐廳"},
                "items": [
                  {"id": "din-tai-fung", "title": {"en": "Din Tai Fung", "zh-Hant": "鼎泰豐"},
                   "detail": {"en": "350 m · Dumplings", "zh-Hant": "350 公尺 · 小籠包"}},
                  {"id": "beef-noodles", "title": {"en": "Lin's Beef Noodles", "zh-Hant": "林家牛肉麵"},
                   "detail": {"en": "500 m · Noodles", "zh-Hant": "500 公尺 · 麵食"}},
                  {"id": "tea-house", "title": {"en": "Wisteria Tea House", "zh-Hant": "紫藤廬"},
                   "detail": {"en": "800 m · Tea", "zh-Hant": "800 公尺 · 茶館"}},
                  {"id": "night-market", "title": {"en": "Raohe Night Market", "zh-Hant": "饒河夜市"},
                   "detail": {"en": "1.2 km · Street food", "zh-Hant": "1.2 公里 · 小吃"}},
                  {"id": "hot-pot", "title": {"en": "Spicy Hot Pot", "zh-Hant": "麻辣火鍋"},
                   "detail": {"en": "1.5 km · Hot pot", "zh-Hant": "1.5 公里 · 火鍋"}},
                  {"id": "veggie", "title": {"en": "Green Leaf Vegetarian", "zh-Hant": "綠葉素食"},
                   "detail": {"en": "2 km · Vegetarian", "zh-Hant": "2 公里 · 素食"}},
                  {"id": "bakery", "title": {"en": "Morning Bakery", "zh-Hant": "晨光麵包坊"},
                   "detail": {"en": "2.4 km · Bakery", "zh-Hant": "2.4 公里 · 麵包"}},
                  {"id": "seafood", "title": {"en": "Harbour Seafood", "zh-Hant": "港口海鮮"},
                   "detail": {"en": "3 km · Seafood", "zh-Hant": "3 公里 · 海鮮"}}
                ]
              }
            },
            {
              "id": "wallet",
              "title": {"en": "Wallet", "zh-Hant": "錢包"},
              "icon": "wallet",
              "page": {
                "kind": "wallet",
                "heading": {"en": "Your wallet", "zh-Hant": "我的錢包"},
                "currency": "TWD",
                "balance": 1200,
                "topUpCap": 5000
              }
            },
            {
              "id": "news",
              "allowsHiding": true,
              "title": {"en": "News", "zh-Hant": "消息"},
              "icon": "news",
              "page": {
                "kind": "news",
                "heading": {"en": "News", "zh-Hant": "最新消息"},
                "items": [
                  {"id": "spring-menu", "title": {"en": "Spring menu", "zh-Hant": "春季菜單"},
                   "body": {"en": "Bamboo shoots and strawberries are back.", "zh-Hant": "竹筍與草莓回來了。"}},
                  {"id": "double-points", "title": {"en": "Double points", "zh-Hant": "點數加倍"},
                   "body": {"en": "Earn double points every Tuesday.", "zh-Hant": "每週二點數加倍。"}},
                  {"id": "new-branch", "title": {"en": "New branch", "zh-Hant": "新分店"},
                   "body": {"en": "We opened near the harbour.", "zh-Hant": "我們在港口附近開了新店。"}}
                ]
              }
            },
            {
              "id": "membership",
              "title": {"en": "Membership", "zh-Hant": "會員"},
              "icon": "person",
              "requiresLogin": true,
              "page": {
                "kind": "profile",
                "heading": {"en": "Membership", "zh-Hant": "會員資料"},
                "paragraphs": [
                  {"en": "Members collect points with every order.", "zh-Hant": "會員每次消費都能累積點數。"}
                ]
              }
            }
          ],
          "sections": [
            {"id": "yours", "title": {"en": "Yours", "zh-Hant": "我的"}, "tabs": ["wallet", "news", "membership"]}
          ],
          "customizable": ["wallet", "news", "membership"]
        }
        """#
}
